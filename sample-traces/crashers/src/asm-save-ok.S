/* sum_words: uses r12 and rbx, and saves/restores both correctly, with CFI. */
    .text
    .globl sum_words
    .type sum_words, @function
sum_words:
    .cfi_startproc
    push %r12
    .cfi_def_cfa_offset 16
    .cfi_offset %r12, -16
    push %rbx
    .cfi_def_cfa_offset 24
    .cfi_offset %rbx, -24
    xor %eax, %eax
    mov %rdi, %rbx
    mov %rsi, %r12
1:  test %r12, %r12
    jz 2f
    add (%rbx), %rax
    add $8, %rbx
    dec %r12
    jmp 1b
2:  pop %rbx
    .cfi_def_cfa_offset 16
    pop %r12
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size sum_words, .-sum_words
    .section .note.GNU-stack,"",@progbits
