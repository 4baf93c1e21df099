function f(a){let s=0;for(let i=0;i<a.length;i++){s+=a[i]*i;}return s;}
const a=new Float64Array(100000).map((_, i)=>i); let t=0;
while(true){ t+=f(a); }
