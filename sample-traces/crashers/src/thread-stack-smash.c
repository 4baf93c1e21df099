/* gcc -O0 -pthread -fstack-protector-strong: a worker thread formats a client name into a
 * 16-byte local with strcpy; a 27-character name overruns the local into the canary (not as
 * far as the return address). The canary check at the worker's return aborts in the worker
 * thread: '*** stack smashing detected ***' while main waits in pthread_join. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const char *client = "client-0123456789abcdefghij";

__attribute__((noinline)) static void *greet_client(void *arg)
{
    char label[16];
    strcpy(label, (const char *)arg);
    printf("hello %s\n", label);
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_create(&t, NULL, greet_client, (void *)client);
    pthread_join(t, NULL);
    return 0;
}
