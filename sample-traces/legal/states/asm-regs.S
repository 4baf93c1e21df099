# Hand-written assembly that uses callee-saved registers legally as data registers:
# r12-r15 hold small integers, r13 a stack address, rbx 0xdeadbeef, rbp 0xaaaaaaaaaaaaaaaa
# (rbp as a general register). Every register is saved and restored, with CFI.
        .text
        .globl  crunch
        .type   crunch, @function
crunch:
        .cfi_startproc
        push    %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        push    %rbx
        .cfi_def_cfa_offset 24
        .cfi_offset %rbx, -24
        push    %r12
        .cfi_def_cfa_offset 32
        .cfi_offset %r12, -32
        push    %r13
        .cfi_def_cfa_offset 40
        .cfi_offset %r13, -40
        push    %r14
        .cfi_def_cfa_offset 48
        .cfi_offset %r14, -48
        push    %r15
        .cfi_def_cfa_offset 56
        .cfi_offset %r15, -56
        sub     $40, %rsp
        .cfi_def_cfa_offset 96
        mov     $1, %r12d
        lea     8(%rsp), %r13
        mov     $2, %r14d
        mov     $3, %r15d
        mov     $0xdeadbeef, %ebx
        movabs  $0xaaaaaaaaaaaaaaaa, %rbp
        mov     %rdi, (%r13)
        movq    $0, 8(%r13)
        .globl  crunch_mid
crunch_mid:
        mov     (%r13), %rax
        add     %r12, %rax
        imul    %r14, %rax
        add     %r15, %rax
        xor     %rbx, %rax
        mov     %rax, 8(%r13)
        mov     %rax, %rdi
        mov     %rbp, %rsi
        call    leaf_probe
        add     8(%r13), %rax
        add     $40, %rsp
        .cfi_def_cfa_offset 56
        pop     %r15
        .cfi_def_cfa_offset 48
        pop     %r14
        .cfi_def_cfa_offset 40
        pop     %r13
        .cfi_def_cfa_offset 32
        pop     %r12
        .cfi_def_cfa_offset 24
        pop     %rbx
        .cfi_def_cfa_offset 16
        pop     %rbp
        .cfi_def_cfa_offset 8
        ret
        .cfi_endproc
        .size   crunch, .-crunch
        .section .note.GNU-stack,"",@progbits
