/* A pthread_key destructor runs when the worker thread exits (glibc's __nptl_deallocate_tsd):
 * it returns the thread's slot to a registry that main already tore down (set to NULL). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct registry { int free_slots[16]; int nfree; };
static struct registry *the_registry;
static pthread_key_t slot_key;
static pthread_barrier_t torn_down;

static void release_slot(void *p)
{
    int slot = *(int *)p;
    the_registry->free_slots[the_registry->nfree++] = slot; /* registry is gone */
    free(p);
}

static void *worker(void *arg)
{
    int *slot = malloc(sizeof *slot);
    *slot = (int)(long)arg;
    pthread_setspecific(slot_key, slot);
    pthread_barrier_wait(&torn_down); /* main tears the registry down meanwhile */
    pthread_barrier_wait(&torn_down);
    return NULL; /* the key's destructor runs now */
}

int main(void)
{
    static struct registry reg;
    the_registry = &reg;
    pthread_key_create(&slot_key, release_slot);
    pthread_barrier_init(&torn_down, NULL, 2);
    pthread_t t;
    pthread_create(&t, NULL, worker, (void *)3L);
    pthread_barrier_wait(&torn_down);
    the_registry = NULL; /* shutdown before the worker is gone */
    pthread_barrier_wait(&torn_down);
    pthread_join(t, NULL);
    puts("done");
    return 0;
}
