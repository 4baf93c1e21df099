/* scan_rows: saves rbx and r12 with push (CFI says so), reserves two words of scratch and
 * clears them through rcx with an off-by-one count of 3, which zeroes the saved r12. Before it
 * can return (and restore r12 = 0 into its caller) it stores its result through the NULL
 * `out` pointer and faults: the crash is that NULL write, and the overwritten save slot is
 * visible only in the stack memory of the live frame (`info frame` says where r12 is saved,
 * `x/8gx $sp` shows that word). */
    .text
    .globl scan_rows
    .type scan_rows, @function
scan_rows:
    .cfi_startproc
    push %rbx
    .cfi_def_cfa_offset 16
    .cfi_offset %rbx, -16
    push %r12
    .cfi_def_cfa_offset 24
    .cfi_offset %r12, -24
    sub $16, %rsp
    .cfi_def_cfa_offset 40
    mov %rdx, %r8
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
3:  mov %rax, (%r8)
    add $16, %rsp
    .cfi_def_cfa_offset 24
    pop %r12
    .cfi_def_cfa_offset 16
    pop %rbx
    .cfi_def_cfa_offset 8
    ret
    .cfi_endproc
    .size scan_rows, .-scan_rows
    .section .note.GNU-stack,"",@progbits
