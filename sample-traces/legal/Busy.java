public class Busy { public static void main(String[] a){ long s=0; for(long i=0;;i++){ s+= (i*31)^(s>>3); if ((i & 0xffffff)==0) System.out.print(""); } } }
