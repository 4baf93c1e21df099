/* julia-trampoline-aarch64.S: the "JIT-compiled" half of the AArch64 julia-trampoline
 * samples, an AArch64 port of ../../src/julia-trampoline.S.  It links with the same C
 * half, ../../src/julia-trampoline.c (whose comments speak of x86-64 and r13: on AArch64
 * read x20 for r13).
 *
 * On AArch64 Julia >= 1.10 passes pgcstack to specsig bodies in x20 (LLVM's swiftself
 * register there), where x86-64 uses r13.  x20 is callee-saved in the AAPCS64, so C code
 * may keep anything in it:
 *   julia_*   specsig bodies: pgcstack arrives in x20.  Entry does ptls = pgcstack[2];
 *             safepoint = ptls[2]; load *safepoint, then pushes a GC frame
 *             {nroots<<2, prev=*pgcstack, roots...} and stores its address to *pgcstack.
 *   jfptr_*   jlcall-ABI wrapper (C ABI): loads pgcstack from TLS into x20.
 *   jlcapi_*  @cfunction trampoline (C ABI).  Built with -DGOOD_X20 it loads pgcstack from
 *             TLS into x20 before calling the specsig body; without it, it calls the body
 *             with whatever x20 the C caller left there (the founding bug).
 *   run_pass_manager: ordinary C-ABI code that keeps the thunk pointer in the
 *             callee-saved x20 across the callback.
 * With the bad trampoline the callee reads ptls = [thunk+16] = 0x2a and faults loading
 * [0x2a+16]: si_addr 0x3a.  No debug line info (like JIT code); CFI for unwinding; frame
 * records (x29/x30) everywhere. */

        .text

/* void *jfptr_run_22(void *F, void **args, uint32_t nargs)   C ABI */
        .globl  jfptr_run_22
        .type   jfptr_run_22, %function
        .p2align 2
jfptr_run_22:
        .cfi_startproc
        stp     x29, x30, [sp, #-32]!
        .cfi_def_cfa_offset 32
        .cfi_offset w29, -32
        .cfi_offset w30, -24
        mov     x29, sp
        str     x20, [sp, #16]
        .cfi_offset w20, -16
        adrp    x8, :gottprel:jl_pgcstack_tls
        ldr     x8, [x8, #:gottprel_lo12:jl_pgcstack_tls]
        mrs     x9, tpidr_el0
        ldr     x20, [x9, x8]                   /* x20 = pgcstack (from TLS) */
        ldr     x0, [x1]                        /* args[0]: module */
        ldr     x1, [x1, #8]                    /* args[1]: thunk  */
        bl      julia_run_21
        sxtw    x0, w0
        ldr     x20, [sp, #16]
        ldp     x29, x30, [sp], #32
        .cfi_restore w20
        .cfi_restore w30
        .cfi_restore w29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   jfptr_run_22, .-jfptr_run_22

/* int julia_run_21(swiftself pgcstack in x20, Module *x0, Thunk *x1) */
        .globl  julia_run_21
        .type   julia_run_21, %function
        .p2align 2
julia_run_21:
        .cfi_startproc
        stp     x29, x30, [sp, #-64]!
        .cfi_def_cfa_offset 64
        .cfi_offset w29, -64
        .cfi_offset w30, -56
        mov     x29, sp
        stp     x19, x21, [sp, #16]
        .cfi_offset w19, -48
        .cfi_offset w21, -40
        mov     x19, x0
        mov     x21, x1
        ldr     x8, [x20, #16]                  /* ptls = pgcstack[2]  */
        ldr     x8, [x8, #16]                   /* safepoint = ptls[2] */
        ldr     x8, [x8]                        /* safepoint poll      */
        mov     x8, #8                          /* nroots = 2 << 2     */
        str     x8, [sp, #32]
        ldr     x8, [x20]
        str     x8, [sp, #40]                   /* prev = *pgcstack    */
        stp     x19, x21, [sp, #48]             /* roots               */
        add     x8, sp, #32
        str     x8, [x20]                       /* *pgcstack = &frame  */
        mov     x0, x19
        adrp    x1, .Lpasses
        add     x1, x1, :lo12:.Lpasses
        mov     x2, x21
        bl      LLVMRunPasses                   /* ccall into "libLLVM" */
        ldr     x8, [sp, #40]
        str     x8, [x20]                       /* pop GC frame */
        ldp     x19, x21, [sp, #16]
        ldp     x29, x30, [sp], #64
        .cfi_restore w19
        .cfi_restore w21
        .cfi_restore w30
        .cfi_restore w29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   julia_run_21, .-julia_run_21

/* int run_pass_manager(Module *x0, Thunk *x1, int (*cb)(Module*, Thunk*))   C ABI.
 * Keeps the thunk in callee-saved x20 across the callback. */
        .globl  run_pass_manager
        .type   run_pass_manager, %function
        .p2align 2
run_pass_manager:
        .cfi_startproc
        stp     x29, x30, [sp, #-32]!
        .cfi_def_cfa_offset 32
        .cfi_offset w29, -32
        .cfi_offset w30, -24
        mov     x29, sp
        stp     x19, x20, [sp, #16]
        .cfi_offset w19, -16
        .cfi_offset w20, -8
        mov     x20, x1                         /* x20 = thunk (callee-saved temp) */
        mov     x19, x0                         /* x19 = module */
        blr     x2                              /* cb(module, thunk) */
        sxtw    x0, w0
        str     x0, [x20, #24]                  /* thunk->status = result */
        ldp     x19, x20, [sp, #16]
        ldp     x29, x30, [sp], #32
        .cfi_restore w19
        .cfi_restore w20
        .cfi_restore w30
        .cfi_restore w29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   run_pass_manager, .-run_pass_manager

/* int jlcapi_module_callback_4213(Module *x0, Thunk *x1)   C ABI @cfunction trampoline:
 * calls the specsig body through the converter cache slot. */
        .globl  jlcapi_module_callback_4213
        .type   jlcapi_module_callback_4213, %function
        .p2align 2
jlcapi_module_callback_4213:
        .cfi_startproc
        stp     x29, x30, [sp, #-32]!
        .cfi_def_cfa_offset 32
        .cfi_offset w29, -32
        .cfi_offset w30, -24
        mov     x29, sp
#ifdef GOOD_X20
        str     x20, [sp, #16]                  /* C ABI: x20 is callee-saved */
        .cfi_offset w20, -16
        adrp    x8, :gottprel:jl_pgcstack_tls
        ldr     x8, [x8, #:gottprel_lo12:jl_pgcstack_tls]
        mrs     x9, tpidr_el0
        ldr     x20, [x9, x8]                   /* x20 = pgcstack (from TLS) */
        adrp    x8, jl_cfunc_cache_4213
        add     x8, x8, :lo12:jl_cfunc_cache_4213
        ldr     x8, [x8, #8]
        blr     x8                              /* specsig(pgcstack, module, thunk) */
        and     w0, w0, #0xff
        ldr     x20, [sp, #16]
        .cfi_restore w20
#else
        adrp    x8, jl_cfunc_cache_4213
        add     x8, x8, :lo12:jl_cfunc_cache_4213
        ldr     x8, [x8, #8]
        blr     x8                              /* BUG: x20 not set (gcstack_arg=false caller) */
        and     w0, w0, #0xff
#endif
        ldp     x29, x30, [sp], #32
        .cfi_restore w30
        .cfi_restore w29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   jlcapi_module_callback_4213, .-jlcapi_module_callback_4213

/* Bool julia_module_callback_4212(swiftself pgcstack in x20, Module *x0, Thunk *x1) */
        .globl  julia_module_callback_4212
        .type   julia_module_callback_4212, %function
        .p2align 2
julia_module_callback_4212:
        .cfi_startproc
        stp     x29, x30, [sp, #-48]!
        .cfi_def_cfa_offset 48
        .cfi_offset w29, -48
        .cfi_offset w30, -40
        mov     x29, sp
        ldr     x8, [x20, #16]                  /* ptls = pgcstack[2] */
        ldr     x8, [x8, #16]                   /* safepoint = ptls[2]  (bad x20: faults here) */
        ldr     x8, [x8]                        /* safepoint poll */
        mov     x8, #4                          /* nroots = 1 << 2 */
        str     x8, [sp, #16]
        ldr     x8, [x20]
        str     x8, [sp, #24]                   /* prev = *pgcstack */
        str     x0, [sp, #32]                   /* root the module */
        add     x8, sp, #16
        str     x8, [x20]                       /* *pgcstack = &frame */
.Lgcframe_pushed:
        bl      jl_module_has_functions         /* ccall */
        ldr     x8, [sp, #24]
        str     x8, [x20]                       /* pop GC frame */
        cmp     w0, #0
        cset    w0, ne
        ldp     x29, x30, [sp], #48
        .cfi_restore w30
        .cfi_restore w29
        .cfi_def_cfa_offset 0
        ret
        .cfi_endproc
        .size   julia_module_callback_4212, .-julia_module_callback_4212

        .section .rodata
.Lpasses:
        .string "default<O2>,JLCustomModulePass"

        /* converter cache slot for the @cfunction: {world, fptr} */
        .data
        .balign 8
        .globl  jl_cfunc_cache_4213
        .type   jl_cfunc_cache_4213, %object
jl_cfunc_cache_4213:
        .quad   26513
        .quad   julia_module_callback_4212
        .size   jl_cfunc_cache_4213, 16

        .section .note.GNU-stack,"",%progbits
