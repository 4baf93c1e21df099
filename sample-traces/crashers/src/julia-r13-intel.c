/* julia-r13-intel: a copy of sample-traces/src/julia-trampoline.c (the founding case), recorded
 * here with Intel-syntax disassembly of every frame up to the one that wrote r13.
 *
 * julia-trampoline: C half of an emulation of the founding tracecheck case
 * (Julia 1.12 @cfunction ABI mismatch, gcstack_arg).  See julia-r13-intel.S
 * for the "JIT-compiled" functions.
 *
 * Call chain at the fault / breakpoint:
 *   main -> ijl_apply_generic (C) -> jfptr_run_22 (asm, jlcall ABI, loads
 *   pgcstack from TLS into r13) -> julia_run_21 (asm, specsig, pgcstack in r13)
 *   -> LLVMRunPasses (C) -> run_pass_manager (asm, C ABI, keeps the thunk
 *   pointer in callee-saved r13) -> jlcapi_module_callback_4213 (asm, C ABI
 *   @cfunction trampoline) -> julia_module_callback_4212 (asm, specsig, expects
 *   pgcstack in r13 like Julia >= 1.10's swiftself argument).
 *
 * Built twice from the same sources:
 *   julia-trampoline-bad-r13   (default)   the trampoline does not set r13; the
 *       callee finds the leftover thunk pointer there and faults on
 *       ptls = [r13+16] = 0x2a; safepoint = [ptls+16] -> si_addr 0x3a.
 *   julia-trampoline-good-r13  (-DGOOD_R13) the trampoline loads pgcstack from
 *       the TLS slot into r13 first; the callee pushes its GC frame and the
 *       program exits normally.
 *
 * Layouts follow Julia >= 1.10 on x86-64 (see reference/pinned-registers.md 3.2, 3.3):
 *   pgcstack == &task->gcstack; task->gcstack, world_age, ptls at +0, +8, +16
 *   from pgcstack; gcstack at offset 112 of jl_task_t; the task object has a
 *   type-tag header word 0xb0 (jl_task_tag << 4) right before it;
 *   ptls->safepoint at +16; GC frame = { nroots << 2, prev, roots... }. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef struct _jl_gcframe_t {
    size_t nroots;
    struct _jl_gcframe_t *prev;
} jl_gcframe_t;

typedef struct {
    int16_t tid;                         /* +0  */
    int8_t threadpoolid;                 /* +2  */
    uint64_t rngseed;                    /* +8  */
    volatile size_t *safepoint;          /* +16 */
    int8_t sleep_check_state;
    int8_t gc_state;
    int16_t in_pure_callback;
    int16_t in_finalizer;
    int8_t disable_gc;
} jl_tls_states_t;

typedef struct {
    void *next, *queue, *tls, *donenotify, *result, *scope, *start;  /* +0..+48 */
    uint64_t rngState[5];                                            /* +56..+88 */
    uint8_t _state, sticky, _isexception, priority_pad[5];           /* +96 */
    uint64_t priority_and_pad;                                       /* +104 */
    jl_gcframe_t *gcstack;               /* +112  <- pgcstack points here */
    size_t world_age;                    /* +120 */
    jl_tls_states_t *ptls;               /* +128 */
    void *excstack;                      /* +136 */
    void *eh;                            /* +144 */
} jl_task_t;

_Static_assert(__builtin_offsetof(jl_task_t, gcstack) == 112, "gcstack offset");
_Static_assert(__builtin_offsetof(jl_tls_states_t, safepoint) == 16, "safepoint offset");

/* TLS slot the trampolines/jfptr wrappers load pgcstack from (Julia's
 * jl_pgcstack is an initial-exec TLS variable reached through %fs). */
__thread jl_gcframe_t **jl_pgcstack_tls;

/* LLVM-ish objects. */
struct LLVMOpaqueModule {
    const char *name;
    size_t nfunctions;
    void *context;
    void *datalayout;
};

struct pass_callback_thunk;
struct thunk_vtable {
    void (*destroy)(struct pass_callback_thunk *);
    int (*invoke)(struct pass_callback_thunk *, struct LLVMOpaqueModule *);
};

/* Like LLVM.jl's CustomPassState / a C++ callback object: the first word is a
 * vtable pointer into .data.rel.ro (read-only after relocation). */
struct pass_callback_thunk {
    const struct thunk_vtable *vtable;   /* +0  */
    int (*callback)(struct LLVMOpaqueModule *, struct pass_callback_thunk *); /* +8 */
    uint64_t opt_level;                  /* +16 = 0x2a: small non-pointer integer */
    int64_t status;                      /* +24 written by run_pass_manager */
    const char *pass_name;               /* +32 */
};

static void thunk_destroy(struct pass_callback_thunk *t) { free(t); }
static int thunk_invoke(struct pass_callback_thunk *t, struct LLVMOpaqueModule *m)
{
    return t->callback(m, t);
}
static const struct thunk_vtable pass_callback_thunk_vtable = { thunk_destroy, thunk_invoke };

/* Implemented in julia-trampoline.S */
int jlcapi_module_callback_4213(struct LLVMOpaqueModule *m, struct pass_callback_thunk *t);
int run_pass_manager(struct LLVMOpaqueModule *m, struct pass_callback_thunk *t,
                     int (*cb)(struct LLVMOpaqueModule *, struct pass_callback_thunk *));
void *jfptr_run_22(void *F, void **args, uint32_t nargs);

/* Called by julia_run_21 (as a ccall) with the module and the thunk. */
__attribute__((noinline)) int LLVMRunPasses(struct LLVMOpaqueModule *M, const char *Passes,
                                            struct pass_callback_thunk *Thunk)
{
    size_t len = strlen(Passes);
    if (len == 0 || M->nfunctions == 0)
        return 1;
    /* the custom pass registered by LLVM.jl: call it through its C callback */
    return run_pass_manager(M, Thunk, Thunk->callback);
}

/* Called from julia_module_callback_4212's body (as a ccall). */
__attribute__((noinline)) int jl_module_has_functions(struct LLVMOpaqueModule *M)
{
    return M->nfunctions > 0;
}

/* A generic function object and a toy method table lookup. */
typedef void *(*jl_fptr_args_t)(void *F, void **args, uint32_t nargs);
struct jl_function { const char *name; jl_fptr_args_t invoke; };

__attribute__((noinline)) void *ijl_apply_generic(void *F, void **args, uint32_t nargs)
{
    struct jl_function *f = F;
    jl_fptr_args_t fptr = f->invoke;     /* "method lookup" */
    return fptr(F, args, nargs);
}

static struct jl_function run_function = { "run!", jfptr_run_22 };

int main(void)
{
    /* fake Julia runtime state: task with a type-tag header, ptls, safepoint page */
    uint64_t *task_block = calloc(1, 8 + sizeof(jl_task_t));
    task_block[0] = 0xb0;                                  /* jl_task_tag << 4 */
    jl_task_t *ct = (jl_task_t *)(task_block + 1);
    jl_tls_states_t *ptls = calloc(1, sizeof *ptls);
    volatile size_t *safepoint_page = mmap(NULL, 4096, PROT_READ,
                                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (safepoint_page == MAP_FAILED) { perror("mmap"); return 2; }
    ptls->tid = 0;
    ptls->rngseed = 0x6a09e667f3bcc908ULL;
    ptls->safepoint = safepoint_page;
    ct->gcstack = NULL;
    ct->world_age = 26513;
    ct->ptls = ptls;
    jl_pgcstack_tls = &ct->gcstack;

    struct LLVMOpaqueModule *mod = calloc(1, sizeof *mod);
    mod->name = "start";
    mod->nfunctions = 3615;

    struct pass_callback_thunk *thunk = malloc(sizeof *thunk);
    thunk->vtable = &pass_callback_thunk_vtable;
    thunk->callback = jlcapi_module_callback_4213;        /* the @cfunction pointer */
    thunk->opt_level = 0x2a;
    thunk->status = -1;
    thunk->pass_name = "JLCustomModulePass";

    void *args[2] = { mod, thunk };
    void *ret = ijl_apply_generic(&run_function, args, 2);
    printf("run! returned %ld, thunk status %ld, gcstack %p\n",
           (long)(intptr_t)ret, (long)thunk->status, (void *)ct->gcstack);
    thunk->vtable->destroy(thunk);
    return 0;
}
