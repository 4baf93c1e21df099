/* run_on_stack(top, fn): hand-written "switch to this stack and call fn" for a tiny green-thread
 * runtime.  It loads rsp from its first argument without any check, pushes the old rsp and
 * calls fn.  Given the top of a stack that was never allocated, the push writes to an
 * address in no mapping: the fault is on the stack pointer itself. */
    .text
    .globl run_on_stack
    .type run_on_stack, @function
run_on_stack:
    .cfi_startproc
    push %rbp
    .cfi_def_cfa_offset 16
    .cfi_offset %rbp, -16
    mov %rsp, %rbp
    .cfi_def_cfa_register %rbp
    mov %rdi, %rsp          /* the pivot: rsp = top */
    push %rbp               /* faults when top is not a stack */
    call *%rsi
    mov %rbp, %rsp
    pop %rbp
    .cfi_def_cfa %rsp, 8
    ret
    .cfi_endproc
    .size run_on_stack, .-run_on_stack
    .section .note.GNU-stack,"",@progbits
