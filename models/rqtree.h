/* rqtree.h - the waiting tasks of one run queue as a search tree, for O(log n) picks.
 *
 * The kernel keeps a CPU's fair-class entities in an rbtree ordered by vruntime (ties after the
 * equal keys already there), augmented since 6.6 with each subtree's earliest virtual deadline,
 * so that pick_eevdf() finds the eligible entity with the earliest deadline in O(log n). This is
 * the same idea on a treap: tasks are ordered by (vruntime, queue sequence number), each node
 * records the task of earliest (deadline, sequence number) in its subtree, and node priorities
 * are a hash of the sequence number, so the shape, like everything else, is a function of the
 * run's history alone. The sequence number is the task's position in the run queue's enqueue
 * order, which breaks every tie the way a scan of the queue in that order would.
 *
 * vruntimes and deadlines are compared through signed differences, as in the kernel (values
 * stay within 2^63 of each other). Operations recurse to the tree's depth, O(log n) expected.
 * The node fields live in Task (Task.rqt); a task is in at most one tree.
 */
#ifndef SKSIM_RQTREE_H
#define SKSIM_RQTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "models/cpu.h"

/* t->rqt.seq must be set (unique in the tree) and t->vruntime, t->deadline must not change
 * while t is in the tree. */
void rqtree_insert(Task **root, Task *t);
void rqtree_remove(Task **root, Task *t);
/* The task of smallest (vruntime, seq), or NULL. */
Task *rqtree_first(Task *root);
/* The task of earliest (deadline, seq) among those with vdiff(vruntime, base) * n <= key_sum,
 * i.e. EEVDF-eligible (a prefix of the tree's order), or NULL. */
Task *rqtree_pick_eligible(Task *root, uint64_t base, int64_t key_sum, int64_t n);

#endif
