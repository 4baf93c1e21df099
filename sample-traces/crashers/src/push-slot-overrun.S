/* mix_rows: saves r12 and rbx with push (CFI says so), reserves two words of scratch and
 * clears them through a pointer in rcx with an off-by-one count of 3, which zeroes the
 * saved r12 (the word just above the scratch); the pop "restores" r12 = 0 into the caller.
 * The store goes through rcx, not rsp: the code alone does not show which word was the
 * saved copy; the save slot (from the push sequence) and the dead frame do. */
    .text
    .globl mix_rows
    .type mix_rows, @function
mix_rows:
    .cfi_startproc
    push %rbx
    .cfi_def_cfa_offset 16
    .cfi_offset %rbx, -16
    push %r12
    .cfi_def_cfa_offset 24
    .cfi_offset %r12, -24
    sub $16, %rsp
    .cfi_def_cfa_offset 40
    mov %rdi, %r12
    mov %rsi, %rbx
    lea (%rsp), %rcx
    mov $3, %edx
1:  movq $0, (%rcx)
    add $8, %rcx
    dec %edx
    jnz 1b
    xor %eax, %eax
2:  test %rbx, %rbx
    jz 3f
    add (%r12), %rax
    add $8, %r12
    dec %rbx
    jmp 2b
3:  add $16, %rsp
    .cfi_def_cfa_offset 24
    pop %r12
    .cfi_def_cfa_offset 16
    pop %rbx
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size mix_rows, .-mix_rows
    .section .note.GNU-stack,"",@progbits
