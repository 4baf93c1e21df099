/* Calls the assembly helper spin_wait, which runs hlt in user space. */
#include <stdio.h>
void spin_wait(long idle);

int main(int argc, char **argv)
{
    (void)argv;
    spin_wait(0);
    puts("idle");
    spin_wait(argc);
    return 0;
}
