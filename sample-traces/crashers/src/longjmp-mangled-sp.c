/* gcc -O0: an error-recovery jmp_buf sits right after a fixed-size name buffer in a parser
 * context; a name longer than the buffer is copied with memcpy over the jmp_buf's first
 * words.  glibc stores rbx, rbp, r12-r15, rsp and the pc in that order, rbp, rsp and the pc
 * mangled with the pointer guard; the overrun reaches rbx..r15 and the saved rsp but not the
 * pc.  longjmp() demangles the garbage into rsp (a non-canonical value almost surely) and jumps
 * back into parse(), whose first use of the stack faults (#GP: SIGSEGV, si_code SI_KERNEL). */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

struct parser {
    char name[16];
    jmp_buf on_error;
    int depth;
};

__attribute__((noinline)) static void fail(struct parser *p, const char *why)
{
    fprintf(stderr, "parse error: %s\n", why);
    longjmp(p->on_error, 1);
}

__attribute__((noinline)) static void read_name(struct parser *p, const char *src, size_t n)
{
    memcpy(p->name, src, n); /* BUG: n is not checked against sizeof p->name */
    if (n > sizeof p->name)
        fail(p, "name too long");
}

__attribute__((noinline)) static int parse(struct parser *p, const char *src, size_t n)
{
    if (setjmp(p->on_error)) {
        printf("recovered at depth %d\n", p->depth);
        return -1;
    }
    read_name(p, src, n);
    return 0;
}

int main(void)
{
    static struct parser p;
    char text[16 + 56 + 1];
    memset(text, 'x', sizeof text - 1);
    text[sizeof text - 1] = 0;
    return parse(&p, text, sizeof text - 1) < 0;
}
