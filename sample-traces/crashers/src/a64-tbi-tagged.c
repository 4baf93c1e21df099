/* a64-tbi-tagged (AArch64, gcc -O2, qemu-user, static): AArch64 Linux ignores the top byte
 * of a data address (Top Byte Ignore), so a program may keep a type tag there and dereference
 * the tagged pointer directly: legal, although the value (0x5a00…, 0x3c00…) is not a canonical
 * address on x86-64. The tagged loads work; then an unrelated NULL read in a leaf. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TAG(p, t) ((void *)((uintptr_t)(p) | ((uintptr_t)(t) << 56)))

struct box { long value; struct box *next; };

__attribute__((noinline)) long unbox_sum(struct box *tagged_a, struct box *tagged_b, long *tagged_c) {
    /* dereferences through tagged pointers: TBI makes them legal */
    return tagged_a->value + tagged_b->value + *tagged_c;
}

__attribute__((noinline)) long next_value(const struct box *b) { return b->next->value; }

int main(void) {
    struct box *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    long *c = malloc(sizeof *c);
    a->value = 1; a->next = b; b->value = 2; b->next = NULL; *c = 3;
    struct box *ta = TAG(a, 0x5a), *tb = TAG(b, 0x3c);
    long *tc = TAG(c, 0x7f);
    long s = unbox_sum(ta, tb, tc);
    __asm__ volatile("" : "+r"(ta), "+r"(tb), "+r"(tc));
    s += next_value(a);
    s += next_value(b); /* b->next is NULL */
    __asm__ volatile("" ::"r"(ta), "r"(tb), "r"(tc));
    printf("%ld\n", s);
    return 0;
}
