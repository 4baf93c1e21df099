/* gcc -O0 -pthread: look-alike of setcontext-freed-stack: the same worker's context, saved on
 * a stack the program mmap()ed, is resumed while that stack is still mapped (the program keeps
 * it), so rsp is in an anonymous mapping and legal there; the resumed code then reads a
 * report through a NULL pointer.  stack-pointer-wild must stay quiet. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <ucontext.h>

#define STACK_SIZE (256 * 1024)

struct report { long count; };

static ucontext_t resume_point;
static volatile int resumed;
static struct report *volatile last_report;

__attribute__((noinline)) static void checkpoint(void)
{
    getcontext(&resume_point);
    if (resumed)
        printf("resumed checkpoint: %ld\n", last_report->count); /* last_report is NULL */
}

static void *worker(void *arg)
{
    (void)arg;
    checkpoint();
    return NULL;
}

int main(void)
{
    void *stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED)
        return 1;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstack(&a, stack, STACK_SIZE);
    pthread_t t;
    pthread_create(&t, &a, worker, NULL);
    pthread_join(t, NULL);
    resumed = 1;
    setcontext(&resume_point); /* the stack is still mapped */
    return 0;
}
