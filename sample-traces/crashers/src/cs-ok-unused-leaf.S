/* mix_leaf: a leaf that uses only caller-saved registers, so it saves none (legal). */
    .text
    .globl mix_leaf
    .type mix_leaf, @function
mix_leaf:
    .cfi_startproc
    mov %rdi, %rax
    imul $0x3779b1, %rax, %rax
    mov %rax, %rcx
    shr $16, %rcx
    xor %rcx, %rax
    and $0xff, %eax
    ret
    .cfi_endproc
    .size mix_leaf, .-mix_leaf
    .section .note.GNU-stack,"",@progbits
