/* gcc -O0: look-alike of jit-wx-patch: the same W^X JIT done right (mprotect to read-write,
 * patch, back to read-execute); the generated code loads a field of its argument, and the
 * second call passes a NULL record: the NULL read is in the JIT code (pc in the anonymous r-x
 * mapping, legal), called from main. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* mov 0x8(%rdi),%eax ; add $imm32,%eax ; ret */
static const unsigned char load_add[] = { 0x8b, 0x47, 0x08, 0x05, 0x00, 0x00, 0x00, 0x00, 0xc3 };

struct rec { long id; int score; };

int main(void)
{
    unsigned char *buf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    memcpy(buf, load_add, sizeof load_add);
    mprotect(buf, 4096, PROT_READ | PROT_EXEC);
    int (*fn)(const struct rec *) = (int (*)(const struct rec *))buf;
    struct rec r = { 1, 40 };
    printf("%d\n", fn(&r));
    mprotect(buf, 4096, PROT_READ | PROT_WRITE);
    int bonus = 2;
    memcpy(buf + 4, &bonus, 4);
    mprotect(buf, 4096, PROT_READ | PROT_EXEC);
    const struct rec *missing = NULL;
    printf("%d\n", fn(missing));
    return 0;
}
