/* gcc -O0: a use-after-free write: a connection freed into a fastbin (its tcache bin is full)
 * is still updated through a stale pointer, which overwrites the chunk's (safe-linked) next
 * pointer; when malloc later refills the tcache from that fastbin it finds the next chunk
 * misaligned: "malloc(): unaligned fastbin chunk detected". */
#include <stdio.h>
#include <stdlib.h>

struct conn {
    long bytes;
    int fd;
    int state;
};

int main(void)
{
    struct conn *pool[10];
    for (int i = 0; i < 10; i++)
        pool[i] = malloc(sizeof(struct conn));
    struct conn *stale = pool[8];
    for (int i = 0; i < 10; i++) /* 7 fill the tcache, the rest go to the fastbin */
        free(pool[i]);
    stale->bytes += 1500; /* the write through the stale pointer */
    struct conn *again[10];
    for (int i = 0; i < 10; i++)
        again[i] = malloc(sizeof(struct conn));
    printf("%p\n", (void *)again[9]);
    return 0;
}
