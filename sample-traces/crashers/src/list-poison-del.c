/* An intrusive doubly linked list written after the Linux kernel's list.h, as many user-space
 * projects copy it: list_del() poisons the removed entry's links with LIST_POISON1/2
 * (0xdead000000000100 / 0x...122) so that a use after deletion faults at a recognisable
 * address. expire() deletes entries while iterating with the non-safe iterator, so the loop
 * steps through the deleted entry's poisoned `next`. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define POISON_POINTER_DELTA 0xdead000000000000UL
#define LIST_POISON1 ((struct list_head *)(0x100 + POISON_POINTER_DELTA))
#define LIST_POISON2 ((struct list_head *)(0x122 + POISON_POINTER_DELTA))

struct list_head { struct list_head *next, *prev; };

static void list_add(struct list_head *n, struct list_head *head) {
    n->next = head->next;
    n->prev = head;
    head->next->prev = n;
    head->next = n;
}

static void list_del(struct list_head *e) {
    e->next->prev = e->prev;
    e->prev->next = e->next;
    e->next = LIST_POISON1;
    e->prev = LIST_POISON2;
}

struct timer { long deadline; int id; struct list_head link; };

static struct list_head timers = { &timers, &timers };

__attribute__((noinline)) static int expire(long now) {
    int fired = 0;
    for (struct list_head *p = timers.next; p != &timers; p = p->next) {
        struct timer *t = (struct timer *)((char *)p - offsetof(struct timer, link));
        if (t->deadline <= now) {
            list_del(&t->link); /* BUG: needs list_for_each_safe */
            fired++;
        }
    }
    return fired;
}

int main(void) {
    for (int i = 0; i < 4; i++) {
        struct timer *t = malloc(sizeof *t);
        t->deadline = 10 * (i + 1);
        t->id = i;
        list_add(&t->link, &timers);
    }
    printf("fired %d\n", expire(25));
    return 0;
}
