/* julia-trampoline.S: the "JIT-compiled" half of the julia-trampoline samples.
 * Hand-written x86-64 that follows what Julia >= 1.10 emits:
 *   julia_*   specsig bodies: pgcstack arrives in r13 (LLVM swiftself).  Entry
 *             does ptls = pgcstack[2]; safepoint = ptls[2]; load *safepoint,
 *             then pushes a GC frame {nroots<<2, prev=*pgcstack, roots...} and
 *             stores its address to *pgcstack.
 *   jfptr_*   jlcall-ABI wrapper (C ABI): loads pgcstack from TLS into r13.
 *   jlcapi_*  @cfunction trampoline (C ABI).  Built with -DGOOD_R13 it loads
 *             pgcstack from TLS into r13 before calling the specsig body;
 *             without it, it calls the body with whatever r13 the C caller
 *             left there (the founding bug: gcstack_arg mismatch).
 *   run_pass_manager: ordinary C-ABI code that keeps the thunk pointer in the
 *             callee-saved r13 across the callback (as LLVM's C++ code did).
 * No debug line info is generated for this file (like JIT code); frames are
 * unwound through the CFI below.  Frame pointers are kept everywhere. */

        .text

/* ---------------------------------------------------------------------- */
/* void *jfptr_run_22(void *F, void **args, uint32_t nargs)   C ABI        */
        .globl  jfptr_run_22
        .type   jfptr_run_22, @function
jfptr_run_22:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq   %r13
        .cfi_offset %r13, -24
        pushq   %rbx
        .cfi_offset %rbx, -32
        movq    jl_pgcstack_tls@gottpoff(%rip), %rax
        movq    %fs:(%rax), %r13                /* r13 = pgcstack (from TLS) */
        movq    (%rsi), %rdi                    /* args[0]: module */
        movq    8(%rsi), %rsi                   /* args[1]: thunk  */
        call    julia_run_21
        movslq  %eax, %rax
        popq    %rbx
        popq    %r13
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   jfptr_run_22, .-jfptr_run_22

/* ---------------------------------------------------------------------- */
/* int julia_run_21(swiftself pgcstack in r13, Module *rdi, Thunk *rsi)      */
        .globl  julia_run_21
        .type   julia_run_21, @function
julia_run_21:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq   %r14
        .cfi_offset %r14, -24
        pushq   %rbx
        .cfi_offset %rbx, -32
        subq    $48, %rsp
        movq    %rdi, %rbx
        movq    %rsi, %r14
        movq    16(%r13), %rax                  /* ptls = pgcstack[2]   */
        movq    16(%rax), %rax                  /* safepoint = ptls[2]  */
        movq    (%rax), %rax                    /* safepoint poll       */
        movq    $0, -48(%rbp)                   /* roots[0] */
        movq    $0, -40(%rbp)                   /* roots[1] */
        movq    $8, -64(%rbp)                   /* nroots = 2 << 2      */
        movq    (%r13), %rax
        movq    %rax, -56(%rbp)                 /* prev = *pgcstack     */
        leaq    -64(%rbp), %rax
        movq    %rax, (%r13)                    /* *pgcstack = &frame   */
        movq    %rbx, -48(%rbp)
        movq    %r14, -40(%rbp)
        movq    %rbx, %rdi
        leaq    .Lpasses(%rip), %rsi
        movq    %r14, %rdx
        call    LLVMRunPasses                   /* ccall into "libLLVM" */
        movq    -56(%rbp), %rcx
        movq    %rcx, (%r13)                    /* pop GC frame */
        leaq    -16(%rbp), %rsp
        popq    %rbx
        popq    %r14
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   julia_run_21, .-julia_run_21

/* ---------------------------------------------------------------------- */
/* int run_pass_manager(Module *rdi, Thunk *rsi, int (*cb)(Module*, Thunk*)) */
/* Plain C ABI.  Keeps the thunk in callee-saved r13 across the callback.    */
        .globl  run_pass_manager
        .type   run_pass_manager, @function
run_pass_manager:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq   %r13
        .cfi_offset %r13, -24
        pushq   %r12
        .cfi_offset %r12, -32
        movq    %rsi, %r13                      /* r13 = thunk (callee-saved temp) */
        movq    %rdi, %r12                      /* r12 = module */
        call    *%rdx                           /* cb(module, thunk) */
        movslq  %eax, %rax
        movq    %rax, 24(%r13)                  /* thunk->status = result */
        popq    %r12
        popq    %r13
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   run_pass_manager, .-run_pass_manager

/* ---------------------------------------------------------------------- */
/* int jlcapi_module_callback_4213(Module *rdi, Thunk *rsi)   C ABI          */
/* @cfunction trampoline: calls the specsig body through the converter     */
/* cache slot (what jl_get_abi_converter returned).                         */
        .globl  jlcapi_module_callback_4213
        .type   jlcapi_module_callback_4213, @function
jlcapi_module_callback_4213:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
#ifdef GOOD_R13
        pushq   %r13                            /* C ABI: r13 is callee-saved */
        .cfi_offset %r13, -24
        subq    $8, %rsp
        movq    jl_pgcstack_tls@gottpoff(%rip), %rax
        movq    %fs:(%rax), %r13                /* r13 = pgcstack (from TLS) */
        movq    jl_cfunc_cache_4213+8(%rip), %rax
        call    *%rax                           /* specsig(pgcstack, module, thunk) */
        movzbl  %al, %eax
        addq    $8, %rsp
        popq    %r13
#else
        movq    jl_cfunc_cache_4213+8(%rip), %rax
        call    *%rax                           /* BUG: r13 not set (gcstack_arg=false caller) */
        movzbl  %al, %eax
#endif
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   jlcapi_module_callback_4213, .-jlcapi_module_callback_4213

/* ---------------------------------------------------------------------- */
/* Bool julia_module_callback_4212(swiftself pgcstack in r13, Module *rdi,  */
/*                                 Thunk *rsi)                              */
        .globl  julia_module_callback_4212
        .type   julia_module_callback_4212, @function
julia_module_callback_4212:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq   %r14
        .cfi_offset %r14, -24
        pushq   %rbx
        .cfi_offset %rbx, -32
        subq    $32, %rsp
        movq    16(%r13), %rax                  /* ptls = pgcstack[2] */
        movq    16(%rax), %rax                  /* safepoint = ptls[2]  (bad r13: faults here) */
        movq    (%rax), %rax                    /* safepoint poll */
        movq    $0, -32(%rbp)                   /* roots[0] */
        movq    $4, -48(%rbp)                   /* nroots = 1 << 2 */
        movq    (%r13), %rax
        movq    %rax, -40(%rbp)                 /* prev = *pgcstack */
        leaq    -48(%rbp), %rax
        movq    %rax, (%r13)                    /* *pgcstack = &frame */
.Lgcframe_pushed:       /* = julia_module_callback_4212+54; gdb/julia-trampoline-good-r13.gdb breaks here */
        movq    %rdi, -32(%rbp)                 /* root the module */
        movq    %rdi, %rbx
        movq    %rsi, %r14
        call    jl_module_has_functions         /* ccall */
        movq    -40(%rbp), %rcx
        movq    %rcx, (%r13)                    /* pop GC frame */
        testl   %eax, %eax
        setne   %al
        leaq    -16(%rbp), %rsp
        popq    %rbx
        popq    %r14
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   julia_module_callback_4212, .-julia_module_callback_4212

/* ---------------------------------------------------------------------- */
        .section .rodata
.Lpasses:
        .string "default<O2>,JLCustomModulePass"

        /* converter cache slot for the @cfunction: {world, fptr} */
        .data
        .balign 8
        .globl  jl_cfunc_cache_4213
        .type   jl_cfunc_cache_4213, @object
jl_cfunc_cache_4213:
        .quad   26513
        .quad   julia_module_callback_4212
        .size   jl_cfunc_cache_4213, 16

        .section .note.GNU-stack,"",@progbits
