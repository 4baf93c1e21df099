import threading, hashlib
def w():
    h = hashlib.sha256()
    while True:
        h.update(b'x' * 4096)
for i in range(3):
    threading.Thread(target=w, daemon=True).start()
while True:
    sum(range(1000))
