/* tramp.S: the two hand-written C-ABI callers of the julia-real harness.
 *
 * Julia >= 1.10 specsig bodies (julia_*) take pgcstack (&current_task->gcstack)
 * in r13 as LLVM's swiftself argument.  A C-ABI caller must put it there; these
 * two callers do not, each in its own way.  The julia_* callee is real Julia
 * code from libetcouple.so (found through the ELF symbol table by harness.c).
 *
 * All 21 arguments of etc_couple's specsig body are integers or pointers, so
 * its argument list is the C one: 6 in registers, 15 on the stack.
 */
        .text

/* int32_t thunk_trampoline(struct thunk *t, const int64_t args[21])
 * Like the @cfunction trampoline of seed 000: it keeps the thunk pointer in
 * the callee-saved r13 (as compiled C/C++ code may) and calls the specsig body
 * t->fn without loading pgcstack.  The callee reads r13 as pgcstack: the
 * leftover heap pointer. */
        .globl  thunk_trampoline
        .type   thunk_trampoline, @function
thunk_trampoline:
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
        movq    %rdi, %r13              /* keep the thunk across the call */
        movq    %rsi, %rbx              /* args */
        subq    $8, %rsp                /* 2 pushes + 8 + 15*8 = 16-aligned */
        movq    $20, %rcx
1:      pushq   (%rbx,%rcx,8)           /* args[20] .. args[6] */
        decq    %rcx
        cmpq    $5, %rcx
        jne     1b
        movq    0(%rbx), %rdi
        movq    8(%rbx), %rsi
        movq    16(%rbx), %rdx
        movq    24(%rbx), %rcx
        movq    32(%rbx), %r8
        movq    40(%rbx), %r9
        call    *8(%r13)                /* t->fn: the julia_* specsig body */
        addq    $128, %rsp
        movq    %rax, 24(%r13)          /* t->result = the return value */
        popq    %rbx
        popq    %r13
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   thunk_trampoline, .-thunk_trampoline

/* int32_t call_with_r13(void *fn, void *r13, const int64_t args[21])
 * A direct C-ABI call of a specsig body with an explicit r13 (0, or the
 * pgcstack of another thread). */
        .globl  call_with_r13
        .type   call_with_r13, @function
call_with_r13:
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
        pushq   %r12
        .cfi_offset %r12, -40
        movq    %rdi, %r12              /* fn */
        movq    %rdx, %rbx              /* args */
        movq    %rsi, %r13              /* the r13 the callee will read as pgcstack */
        movq    $20, %rcx
1:      pushq   (%rbx,%rcx,8)
        decq    %rcx
        cmpq    $5, %rcx
        jne     1b
        movq    0(%rbx), %rdi
        movq    8(%rbx), %rsi
        movq    16(%rbx), %rdx
        movq    24(%rbx), %rcx
        movq    32(%rbx), %r8
        movq    40(%rbx), %r9
        call    *%r12
        addq    $120, %rsp
        popq    %r12
        popq    %rbx
        popq    %r13
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   call_with_r13, .-call_with_r13

        .section .note.GNU-stack,"",@progbits
