/* scan_rows as in live-slot-smash.S, but the scratch is cleared with the right count of 2:
 * the saved rbx and r12 stay intact in the live frame. A look-alike of live-slot-smash (same
 * save slots shown by `info frame` and `x/8gx $sp`, the same NULL `out` write), where nothing
 * was overwritten. */
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
    mov $2, %edx
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
