/* sum_pair: hand-written assembly that pushes a register on one path and returns without
 * popping it, so `ret` pops the saved value (a pointer to the caller's data, in .data) as
 * the return address: the pc lands in non-executable data. */
    .text
    .globl sum_pair
    .type sum_pair, @function
sum_pair:
    .cfi_startproc
    mov (%rdi), %rax
    add 8(%rdi), %rax
    cmp $100, %rax
    jle 1f
    push %rdi                   /* saved for a path that was deleted; never popped */
1:  ret
    .cfi_endproc
    .size sum_pair, .-sum_pair
    .section .note.GNU-stack,"",@progbits
