/* gcc -O2: a program that turns on x86's alignment checking (EFLAGS.AC, as some embedded
 * ports and portability tests do) and then reads a uint32_t at an odd offset of a packed
 * byte stream: SIGBUS with si_code BUS_ADRALN at a valid address. No pointer is NULL, freed or
 * wild; the access is only misaligned. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static inline void enable_alignment_check(void) {
    __asm__ volatile("pushfq\n\torl $0x40000, (%%rsp)\n\tpopfq" ::: "memory", "cc");
}

__attribute__((noinline)) uint32_t field_at(const unsigned char *stream, size_t off) {
    return *(const volatile uint32_t *)(stream + off); /* unaligned when off is odd */
}

static unsigned char stream[64];

int main(void) {
    for (int i = 0; i < 64; i++) stream[i] = (unsigned char)i;
    uint32_t a = field_at(stream, 8);
    enable_alignment_check();
    uint32_t b = field_at(stream, 13);
    printf("%u %u\n", a, b);
    return 0;
}
