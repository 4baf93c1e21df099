/* sum_pairs: saves rbx and r12 with `mov` into its own frame (not push/pop), as compilers do
 * for shrink-wrapped or -O2 frames; the CFI says where (rbx at CFA-32, r12 at CFA-24). A local
 * scratch array is cleared one word too far, which zeroes the saved rbx; the restore brings
 * back rbx = 0 into the caller. Only the CFI tells which stack word was the saved copy. */
    .text
    .globl sum_pairs
    .type sum_pairs, @function
sum_pairs:
    .cfi_startproc
    sub $40, %rsp
    .cfi_def_cfa_offset 48
    mov %rbx, 16(%rsp)
    .cfi_offset %rbx, -32
    mov %r12, 24(%rsp)
    .cfi_offset %r12, -24
    mov %rdi, %rbx
    mov %rsi, %r12
    xor %eax, %eax
    /* scratch[0..1] at 0(%rsp), 8(%rsp): cleared with an off-by-one count of 3 */
    lea (%rsp), %rdx
    mov $3, %ecx
1:  movq $0, (%rdx)
    add $8, %rdx
    dec %ecx
    jnz 1b
2:  test %r12, %r12
    jz 3f
    add (%rbx), %rax
    add $8, %rbx
    dec %r12
    jmp 2b
3:  mov 16(%rsp), %rbx
    .cfi_restore %rbx
    mov 24(%rsp), %r12
    .cfi_restore %r12
    add $40, %rsp
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size sum_pairs, .-sum_pairs
    .section .note.GNU-stack,"",@progbits
