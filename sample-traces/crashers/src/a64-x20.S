/* a64-x20.S: the "JIT-compiled" half of a64-x20 (see a64-x20.c). No debug line info, like
 * JIT code; CFI for unwinding; frame records (x29/x30) everywhere. */
        .text

/* int jfptr_run_22(void *F, void **args, uint32_t nargs)   jlcall wrapper, C ABI */
        .globl  jfptr_run_22
        .type   jfptr_run_22, %function
        .p2align 2
jfptr_run_22:
        .cfi_startproc
        stp     x29, x30, [sp, #-32]!
        .cfi_def_cfa_offset 32
        .cfi_offset 29, -32
        .cfi_offset 30, -24
        mov     x29, sp
        stp     x19, x20, [sp, #16]
        .cfi_offset 19, -16
        .cfi_offset 20, -8
        mov     x19, x1
        bl      jl_get_pgcstack
        mov     x20, x0                         /* x20 = pgcstack */
        ldr     x0, [x19]                       /* args[0]: module */
        bl      julia_run_21
        ldp     x19, x20, [sp, #16]
        ldp     x29, x30, [sp], #32
        .cfi_restore 19
        .cfi_restore 20
        .cfi_restore 30
        .cfi_restore 29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   jfptr_run_22, .-jfptr_run_22

/* int julia_run_21(swiftself pgcstack in x20, Module *x0) */
        .globl  julia_run_21
        .type   julia_run_21, %function
        .p2align 2
julia_run_21:
        .cfi_startproc
        stp     x29, x30, [sp, #-48]!
        .cfi_def_cfa_offset 48
        .cfi_offset 29, -48
        .cfi_offset 30, -40
        mov     x29, sp
        str     x19, [sp, #16]
        .cfi_offset 19, -32
        mov     x19, x0
        ldr     x8, [x20, #16]                  /* ptls = pgcstack[2] */
        ldr     x8, [x8]                        /* safepoint poll */
        mov     x8, #4                          /* nroots = 1 << 2 */
        str     x8, [sp, #24]
        ldr     x8, [x20]
        str     x8, [sp, #32]                   /* prev = *pgcstack */
        str     x19, [sp, #40]                  /* root the module */
        add     x8, sp, #24
        str     x8, [x20]                       /* *pgcstack = &frame */
        mov     x0, x19
        bl      LLVMRunPasses                   /* ccall */
        ldr     x8, [sp, #32]
        str     x8, [x20]                       /* pop GC frame */
        ldr     x19, [sp, #16]
        ldp     x29, x30, [sp], #48
        .cfi_restore 19
        .cfi_restore 30
        .cfi_restore 29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   julia_run_21, .-julia_run_21

/* int run_pass_manager(Module *x0, char *arena, int (*cb)(Module *, char *))   C ABI:
 * keeps the arena in callee-saved x20, releases it, then calls the callback. */
        .globl  run_pass_manager
        .type   run_pass_manager, %function
        .p2align 2
run_pass_manager:
        .cfi_startproc
        stp     x29, x30, [sp, #-48]!
        .cfi_def_cfa_offset 48
        .cfi_offset 29, -48
        .cfi_offset 30, -40
        mov     x29, sp
        stp     x19, x20, [sp, #16]
        .cfi_offset 19, -32
        .cfi_offset 20, -24
        str     x21, [sp, #32]
        .cfi_offset 21, -16
        mov     x19, x0                         /* module */
        mov     x20, x1                         /* arena (callee-saved temp) */
        mov     x21, x2                         /* callback */
        mov     x0, x20
        bl      release_arena                   /* munmap: x20 is now stale */
        mov     x0, x19
        mov     x1, x20
        blr     x21                             /* cb(module, arena) */
        ldr     x21, [sp, #32]
        ldp     x19, x20, [sp, #16]
        ldp     x29, x30, [sp], #48
        .cfi_restore 21
        .cfi_restore 19
        .cfi_restore 20
        .cfi_restore 30
        .cfi_restore 29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   run_pass_manager, .-run_pass_manager

/* int jlcapi_module_callback_4213(Module *x0, char *arena)   @cfunction trampoline, C ABI */
        .globl  jlcapi_module_callback_4213
        .type   jlcapi_module_callback_4213, %function
        .p2align 2
jlcapi_module_callback_4213:
        .cfi_startproc
        stp     x29, x30, [sp, #-32]!
        .cfi_def_cfa_offset 32
        .cfi_offset 29, -32
        .cfi_offset 30, -24
        mov     x29, sp
#ifdef GOOD_X20
        stp     x19, x20, [sp, #16]             /* C ABI: x20 is callee-saved */
        .cfi_offset 19, -16
        .cfi_offset 20, -8
        mov     x19, x0
        bl      jl_get_pgcstack
        mov     x20, x0                         /* x20 = pgcstack */
        mov     x0, x19
        bl      julia_module_callback_4212
        ldp     x19, x20, [sp, #16]
        .cfi_restore 19
        .cfi_restore 20
#else
        bl      julia_module_callback_4212      /* BUG: x20 not set (gcstack_arg=false caller) */
#endif
        ldp     x29, x30, [sp], #32
        .cfi_restore 30
        .cfi_restore 29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   jlcapi_module_callback_4213, .-jlcapi_module_callback_4213

/* int julia_module_callback_4212(swiftself pgcstack in x20, Module *x0): pushes its GC
 * frame first (the store through x20), then asks the runtime. */
        .globl  julia_module_callback_4212
        .type   julia_module_callback_4212, %function
        .p2align 2
julia_module_callback_4212:
        .cfi_startproc
        stp     x29, x30, [sp, #-48]!
        .cfi_def_cfa_offset 48
        .cfi_offset 29, -48
        .cfi_offset 30, -40
        mov     x29, sp
        mov     x8, #4                          /* nroots = 1 << 2 */
        stp     x8, xzr, [sp, #16]
        str     x0, [sp, #32]                   /* root the module */
        add     x8, sp, #16
        str     x8, [x20]                       /* *pgcstack = &frame (bad x20: faults here) */
        bl      jl_module_info_count            /* ccall */
        str     xzr, [x20]                      /* pop GC frame */
        ldp     x29, x30, [sp], #48
        .cfi_restore 30
        .cfi_restore 29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   julia_module_callback_4212, .-julia_module_callback_4212

        .section .note.GNU-stack,"",%progbits
