/* The FIFO of the aggregates that keep their values (fnshared.h). */
#include <string.h>

#include "fnshared/fnshared.h"

/* Room for n more elements: 0, or -1 when memory ran out. */
static int make_room(struct fn_fifo *f, size_t n, fn_grow_fn grow, void *ctx)
{
    if (f->start + f->len + n <= f->cap)
        return 0;
    if (f->start > 0 && f->start >= f->len && f->len + n <= f->cap) {
        /* Mostly removed rows at the front: slide the live ones down. */
        memmove(f->data, fn_fifo_items(f), f->len * f->esize);
        f->start = 0;
        return 0;
    }
    size_t cap = f->cap ? f->cap * 2 : 64;
    while (cap < f->start + f->len + n)
        cap *= 2;
    unsigned char *d = grow(ctx, f->data, cap * f->esize);
    if (!d)
        return -1;
    f->data = d;
    f->cap = cap;
    return 0;
}

int fn_fifo_push(struct fn_fifo *f, const void *elem, fn_grow_fn grow, void *ctx)
{
    if (make_room(f, 1, grow, ctx))
        return -1;
    memcpy(f->data + (f->start + f->len) * f->esize, elem, f->esize);
    f->len++;
    return 0;
}

int fn_fifo_append(struct fn_fifo *f, const void *elems, size_t n, fn_grow_fn grow, void *ctx)
{
    if (n == 0)
        return 0;
    if (make_room(f, n, grow, ctx))
        return -1;
    memcpy(f->data + (f->start + f->len) * f->esize, elems, n * f->esize);
    f->len += n;
    return 0;
}

void fn_fifo_remove(struct fn_fifo *f, const void *elem)
{
    unsigned char *items = fn_fifo_items(f);
    if (f->len == 0)
        return;
    if (memcmp(items, elem, f->esize) == 0) {
        f->start++;
        f->len--;
        if (f->len == 0)
            f->start = 0;
        return;
    }
    for (size_t i = 1; i < f->len; i++) {
        if (memcmp(items + i * f->esize, elem, f->esize) == 0) {
            memmove(items + i * f->esize, items + (i + 1) * f->esize, (f->len - i - 1) * f->esize);
            f->len--;
            return;
        }
    }
}
