/* rqtree.c - a treap of waiting tasks ordered by (vruntime, seq), each subtree knowing its task
 * of earliest (deadline, seq): the run queue's O(log n) leftmost and EEVDF picks (rqtree.h).
 *
 * A treap rather than a red-black tree because it needs only rotations on insert and a merge on
 * removal, and its priorities can be a fixed hash of the sequence number, which keeps the run
 * deterministic without any random state.
 */
#include "models/rqtree.h"

#include <glib.h>
#include <stddef.h>

static int64_t vdiff(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b);
}

/* splitmix64's finaliser: a well-mixed priority from the sequence number. */
static uint64_t prio_of(uint64_t seq)
{
    uint64_t z = seq + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static bool key_less(const Task *a, const Task *b)
{
    int64_t d = vdiff(a->vruntime, b->vruntime);
    return d < 0 || (d == 0 && a->rqt.seq < b->rqt.seq);
}

static const Task *dl_min(const Task *a, const Task *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    int64_t d = vdiff(a->deadline, b->deadline);
    return d < 0 || (d == 0 && a->rqt.seq < b->rqt.seq) ? a : b;
}

static void update(Task *n)
{
    const Task *m = dl_min(n, n->rqt.left ? n->rqt.left->rqt.min : NULL);
    n->rqt.min = (Task *)dl_min(m, n->rqt.right ? n->rqt.right->rqt.min : NULL);
}

static Task *rotate_right(Task *y)
{
    Task *x = y->rqt.left;
    y->rqt.left = x->rqt.right;
    x->rqt.right = y;
    update(y);
    update(x);
    return x;
}

static Task *rotate_left(Task *x)
{
    Task *y = x->rqt.right;
    x->rqt.right = y->rqt.left;
    y->rqt.left = x;
    update(x);
    update(y);
    return y;
}

static Task *insert(Task *root, Task *t)
{
    if (!root)
        return t;
    if (key_less(t, root)) {
        root->rqt.left = insert(root->rqt.left, t);
        if (root->rqt.left->rqt.prio > root->rqt.prio)
            return rotate_right(root);
    } else {
        root->rqt.right = insert(root->rqt.right, t);
        if (root->rqt.right->rqt.prio > root->rqt.prio)
            return rotate_left(root);
    }
    update(root);
    return root;
}

/* Join two treaps, every key of a below every key of b. */
static Task *merge(Task *a, Task *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    if (a->rqt.prio > b->rqt.prio) {
        a->rqt.right = merge(a->rqt.right, b);
        update(a);
        return a;
    }
    b->rqt.left = merge(a, b->rqt.left);
    update(b);
    return b;
}

static Task *remove_task(Task *root, Task *t)
{
    g_assert(root);
    if (root == t)
        return merge(t->rqt.left, t->rqt.right);
    if (key_less(t, root))
        root->rqt.left = remove_task(root->rqt.left, t);
    else
        root->rqt.right = remove_task(root->rqt.right, t);
    update(root);
    return root;
}

void rqtree_insert(Task **root, Task *t)
{
    t->rqt.left = t->rqt.right = NULL;
    t->rqt.min = t;
    t->rqt.prio = prio_of(t->rqt.seq);
    *root = insert(*root, t);
}

void rqtree_remove(Task **root, Task *t)
{
    *root = remove_task(*root, t);
    t->rqt.left = t->rqt.right = t->rqt.min = NULL;
}

Task *rqtree_first(Task *root)
{
    if (!root)
        return NULL;
    while (root->rqt.left)
        root = root->rqt.left;
    return root;
}

/* Eligibility falls as vruntime grows: an eligible node's left subtree is eligible too. */
Task *rqtree_pick_eligible(Task *root, uint64_t base, int64_t key_sum, int64_t n)
{
    const Task *best = NULL;
    for (Task *p = root; p;) {
        if (key_sum >= vdiff(p->vruntime, base) * n) {
            best = dl_min(best, dl_min(p, p->rqt.left ? p->rqt.left->rqt.min : NULL));
            p = p->rqt.right;
        } else {
            p = p->rqt.left;
        }
    }
    return (Task *)best;
}
