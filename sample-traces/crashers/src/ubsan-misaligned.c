/* clang -O1 -fsanitize=undefined -fno-sanitize-recover=all, UBSAN_OPTIONS=abort_on_error=1:
 * a 64-bit length read from an odd offset in a packet buffer; UBSan reports 'load of
 * misaligned address' and aborts. */
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) uint64_t payload_len(const unsigned char *pkt)
{
    return *(const uint64_t *)(pkt + 3); /* misaligned */
}

int main(void)
{
    static unsigned char pkt[64] __attribute__((aligned(8))) = { 1, 2, 3, 40, 0 };
    printf("%llu\n", (unsigned long long)payload_len(pkt));
    return 0;
}
