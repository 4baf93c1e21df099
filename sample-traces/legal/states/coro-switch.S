# A stackful coroutine switch as coroutine libraries write it (libco, boost.context): save the
# callee-saved registers on the current stack, store sp, load the other sp, restore, return.
# coro_boot is the first "return address" of a new coroutine: it calls the body with the
# argument left in r12, then switches back for good. Its CFI marks the outermost frame
# (.cfi_undefined rip), as boost.context does.
        .text
        .globl  coro_switch
        .type   coro_switch, @function
coro_switch:            # coro_switch(void **save_sp /* rdi */, void *to_sp /* rsi */)
        .cfi_startproc
        push    %rbp
        push    %rbx
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        mov     %rsp, (%rdi)
        mov     %rsi, %rsp
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbx
        pop     %rbp
        ret
        .cfi_endproc
        .size   coro_switch, .-coro_switch

        .globl  coro_boot
        .type   coro_boot, @function
coro_boot:
        .cfi_startproc
        .cfi_undefined rip
        mov     %r12, %rdi
        call    *%r13           # body(arg)
        mov     %r14, %rdi      # the coroutine's save slot
        mov     (%r15), %rsi    # the caller's sp
        call    coro_switch
        ud2
        .cfi_endproc
        .size   coro_boot, .-coro_boot
        .section .note.GNU-stack,"",@progbits
