import struct,sys
src,dst=sys.argv[1],sys.argv[2]
b=open(src,'rb').read()
phoff=struct.unpack_from('<Q',b,32)[0]; phentsize,phnum=struct.unpack_from('<HH',b,54)
phs=[list(struct.unpack_from('<IIQQQQQQ',b,phoff+i*phentsize)) for i in range(phnum)]
keep=[]
for p in phs:
    t,fl,off,va,pa,fs,ms,al=p
    if t==4: keep.append((p,b[off:off+fs]))
    elif t==1 and va==0x400000: keep.append((p,b[off:off+fs]))
    elif t==1 and va==0x7ffffffde000:
        # keep only the top page of the stack
        nva=va+ms-0x1000; keep.append(([t,fl,0,nva,0,0x1000,0x1000,al],b[off+fs-0x1000:off+fs]))
hdr=bytearray(b[:64]); struct.pack_into('<H',hdr,56,len(keep))
off=64+56*len(keep); out_ph=b''; data=b''
for p,d in keep:
    p=list(p); p[2]=off+len(data); p[5]=len(d)
    if p[0]==1: p[6]=len(d)
    out_ph+=struct.pack('<IIQQQQQQ',*p); data+=d
open(dst,'wb').write(bytes(hdr)+out_ph+data)
