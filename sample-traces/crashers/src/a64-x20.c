/* a64-x20 (AArch64): the founding case in another shape. Julia passes pgcstack to its
 * specsig bodies in x20 on AArch64 (r13 on x86-64). run_pass_manager (C ABI, in a64-x20.S)
 * keeps its arena pointer in the callee-saved x20, releases the arena (munmap), then calls
 * the @cfunction trampoline jlcapi_module_callback_4213, which calls the Julia body without
 * loading pgcstack into x20. The body's first access through x20 is the store that pushes its
 * GC frame (*pgcstack = &frame): it writes through the stale arena pointer and faults.
 * Built with -DGOOD_X20 (a64-x20-ok) the trampoline loads pgcstack with jl_get_pgcstack();
 * the body runs, and the crash is an unrelated NULL read in jl_module_info_count. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

typedef struct { void *gcstack; uint64_t world_age; void *ptls; } jl_task_head_t;
typedef struct { const char *name; struct { long nfuncs; } *info; } Module;

static void *ptls_block[8];
static jl_task_head_t task = { 0, 26513, ptls_block };

void **jl_get_pgcstack(void) { return (void **)&task; }

int julia_run_21(Module *m); /* specsig body, pgcstack in x20 (a64-x20.S) */
int jfptr_run_22(void *F, void **args, uint32_t nargs);
int run_pass_manager(Module *m, char *arena, int (*cb)(Module *, char *));
int jlcapi_module_callback_4213(Module *m, char *arena);

/* The runtime side the JIT code calls. */
long jl_module_info_count(Module *m) { return m->info->nfuncs; } /* info == NULL */

void release_arena(char *arena) { munmap(arena, 1 << 16); }

__attribute__((noinline)) int LLVMRunPasses(Module *m)
{
    char *arena = mmap(0, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (arena == MAP_FAILED)
        return -1;
    arena[0] = 1;
    return run_pass_manager(m, arena, jlcapi_module_callback_4213);
}

__attribute__((noinline)) int ijl_apply_generic(void *F, void **args, uint32_t nargs)
{
    return jfptr_run_22(F, args, nargs);
}

int main(void)
{
    static Module mod = { "Main", 0 };
    void *args[1] = { &mod };
    printf("%d\n", ijl_apply_generic((void *)main, args, 1));
    return 0;
}
