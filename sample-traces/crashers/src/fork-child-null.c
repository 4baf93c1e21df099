/* The parent forks a worker; the child reads a configuration entry that only the parent
 * had loaded (NULL in the child) and faults. gdb follows the child. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

struct config {
    int workers;
    int port;
};

static struct config *cfg;

__attribute__((noinline)) int child_work(int id)
{
    return cfg->port + id;
}

int main(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        printf("%d\n", child_work(1));
        _exit(0);
    }
    static struct config loaded = {4, 8080};
    cfg = &loaded;
    int st;
    waitpid(pid, &st, 0);
    printf("child status %d\n", st);
    return 0;
}
