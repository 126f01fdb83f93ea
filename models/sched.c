/* sched.c - the fair-class run queue of one CPU: CFS and EEVDF behind one internal ops table.
 *
 * Why a run queue at all: seed 000 is about a socket owner that yields in __release_sock() and
 * comes back only when the scheduler gives it the CPU again. How long that takes, and how often
 * need_resched is set while it drains, is decided here, from the kernel's formulas (notes C.3,
 * C.4) and the host's hosts.H.sched.* tunables scaled by 1 + ilog2(min(ncpus, 8)).
 *
 * CFS (kernel/sched/fair.c, 2.6.23-6.5), equal weights:
 *   period P(n) = latency if n <= sched_nr_latency else n * min_granularity; slice = P/n, with
 *   sched_nr_latency = ceil(latency / min_granularity) (8 with the defaults), as
 *   sched_update_scaling() recomputes it when either is set;
 *   tick: reschedule when this stint ran longer than the slice, or (after min_granularity) when
 *   curr's vruntime leads the leftmost waiting task by more than the slice;
 *   wake-up: preempt when curr.vruntime - woken.vruntime > wakeup_granularity;
 *   placement: a waking sleeper gets max(own, min_vruntime - latency/2) (GENTLE_FAIR_SLEEPERS),
 *   a new task (task_start, the fork) min_vruntime + its slice counted with itself
 *   (START_DEBIT).
 *   buddies: a wake-up that preempts makes the woken task the next buddy (set_next_buddy, done
 *   whatever sched_feat(NEXT_BUDDY) says, which only adds an earlier mark) and, with
 *   sched_nr_latency or more queued, the preempted one the last buddy (LAST_BUDDY, on); the pick
 *   takes the next buddy, else the last, over the leftmost task when it is no more than
 *   wakeup_granularity ahead of it (wakeup_preempt_entity < 1). A buddy is forgotten when it
 *   runs, sleeps or moves. Not modelled: the skip buddy (sched_yield).
 *
 * EEVDF (6.6-6.11 behaviour), equal weights:
 *   V = mean vruntime of the queue (curr included); a task is eligible when its lag V - v >= 0;
 *   pick the eligible task with the earliest virtual deadline; deadline = vruntime + base_slice,
 *   renewed (and the CPU rescheduled if others wait) when update_curr finds it reached;
 *   placement: v = V - lag * (n + 1) / n (PLACE_LAG, lag saved at sleep, clamped to
 *   max(2 * slice, TICK_NSEC)); a new task's first deadline is half a slice away
 *   (PLACE_DEADLINE_INITIAL).
 *   RUN_TO_PARITY is modelled (default on since 6.6): once picked, curr keeps the CPU against
 *   woken tasks while it is eligible and has not reached the deadline it was picked with. It
 *   decides how often a wake-up sets need_resched in the middle of a backlog drain, which is the
 *   mechanism of seed 000. With equal slices this is also the 6.17+ rule: the RUN_TO_PARITY
 *   rework (052c3d87c82e "Limit run to parity to the min slice of enqueued entities",
 *   3a0baa8e6c57, 0b9ca2dcabc3 "Always trigger resched at the end of a protected period")
 *   protects curr up to vprot = min(deadline, vruntime + the queue's minimum slice), which is
 *   the deadline it was picked with when all slices are equal, and reschedules when that ends.
 *   DELAY_DEQUEUE with DELAY_ZERO (6.12+, hosts.H.sched.delay_dequeue): a task that sleeps
 *   while not eligible stays queued - in the tree, in V, counted by nr_running (the kernel's
 *   nr_queued), but not runnable - until a pick chooses it, which dequeues it with any positive
 *   lag cut to 0 and picks again; woken while still queued it is requeued where it is, keeping
 *   its vruntime and deadline, or placed at V with lag 0 if its lag has grown positive. So a
 *   task cannot shed negative lag by sleeping, and a long sleep forgives it (without the
 *   feature a sleeper keeps its lag, of either sign, until it wakes).
 *   Not modelled: PREEMPT_SHORT (6.12+), which only matters for tasks of different slices.
 *
 * vruntimes are u64 compared through signed differences, as in the kernel, so placement below
 * min_vruntime near time zero wraps harmlessly.
 */
#include "models/sched.h"

#include <glib.h>

#include "models/rqtree.h"

/* The CPU-count factor is capped at 8 CPUs (get_update_sysctl_factor, notes C.3). */
#define SCHED_FACTOR_MAX_CPUS 8u

struct SchedOps {
    const char *name;
    void (*place_new)(RunQueue *rq, Task *t);
    void (*place_wakeup)(RunQueue *rq, Task *t);
    void (*on_dequeue)(RunQueue *rq, Task *t);
    bool (*update_curr)(RunQueue *rq);
    void (*set_curr)(RunQueue *rq, Task *t);
    Task *(*pick)(RunQueue *rq);
    bool (*tick)(RunQueue *rq);
    bool (*wakeup_preempt)(RunQueue *rq, Task *woken);
};

/* ---- shared helpers ------------------------------------------------------------------------ */

static int64_t vdiff(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b);
}

static uint64_t max_vruntime(uint64_t a, uint64_t b)
{
    return vdiff(b, a) > 0 ? b : a;
}

uint32_t sched_tunable_factor(uint32_t ncpus)
{
    uint32_t n = ncpus < SCHED_FACTOR_MAX_CPUS ? ncpus : SCHED_FACTOR_MAX_CPUS;
    uint32_t log2 = 0;
    while (n > 1) {
        n >>= 1;
        log2++;
    }
    return 1 + log2;
}

/* The queue in enqueue order (what load balancing scans), and the tree of the queued tasks but
 * curr (what the picks search). A task's seq is its place in that order. */
static void list_append(RunQueue *rq, Task *t)
{
    t->rqt.seq = ++rq->seq;
    t->rq_next = NULL;
    t->rq_prev = rq->tail;
    if (rq->tail)
        rq->tail->rq_next = t;
    else
        rq->head = t;
    rq->tail = t;
}

static void list_remove(RunQueue *rq, Task *t)
{
    if (t->rq_prev)
        t->rq_prev->rq_next = t->rq_next;
    else
        rq->head = t->rq_next;
    if (t->rq_next)
        t->rq_next->rq_prev = t->rq_prev;
    else
        rq->tail = t->rq_prev;
    t->rq_next = t->rq_prev = NULL;
}

static void tree_add(RunQueue *rq, Task *t)
{
    rqtree_insert(&rq->tree, t);
    rq->tree_n++;
    rq->tree_key_sum += vdiff(t->vruntime, rq->min_vruntime);
}

static void tree_del(RunQueue *rq, Task *t)
{
    rqtree_remove(&rq->tree, t);
    rq->tree_n--;
    rq->tree_key_sum -= vdiff(t->vruntime, rq->min_vruntime);
}

/* The leftmost waiting task: smallest vruntime among the queued tasks other than curr (ties to
 * the earliest queued). */
static Task *leftmost_other(const RunQueue *rq)
{
    return rqtree_first(rq->tree);
}

/* update_min_vruntime(): the floor follows min(curr, leftmost) and never goes back. */
static void update_min_vruntime(RunQueue *rq)
{
    const Task *curr = rq->curr && rq->curr->on_rq ? rq->curr : NULL;
    const Task *left = leftmost_other(rq);
    if (!curr && !left)
        return;
    uint64_t v = curr ? curr->vruntime : left->vruntime;
    if (curr && left && vdiff(left->vruntime, v) < 0)
        v = left->vruntime;
    uint64_t floor = max_vruntime(rq->min_vruntime, v);
    rq->tree_key_sum -= vdiff(floor, rq->min_vruntime) * (int64_t)rq->tree_n;
    rq->min_vruntime = floor;
}

/* ---- CFS ----------------------------------------------------------------------------------- */

static sim_time_t cfs_period(const RunQueue *rq, uint32_t n)
{
    return n > rq->nr_latency ? (sim_time_t)n * rq->min_granularity_ns : rq->latency_ns;
}

static sim_time_t cfs_slice_for(const RunQueue *rq, uint32_t n)
{
    return n ? cfs_period(rq, n) / n : cfs_period(rq, 1);
}

sim_time_t rq_cfs_slice(const RunQueue *rq)
{
    return cfs_slice_for(rq, rq->nr_running);
}

static void cfs_place_new(RunQueue *rq, Task *t)
{
    /* START_DEBIT: a new task starts one slice (counted with itself) behind min_vruntime. */
    t->vruntime = rq->min_vruntime + (uint64_t)cfs_slice_for(rq, rq->nr_running + 1);
}

static void cfs_place_wakeup(RunQueue *rq, Task *t)
{
    /* GENTLE_FAIR_SLEEPERS: credit a sleeper at most half a latency period. */
    uint64_t floor = rq->min_vruntime - (uint64_t)(rq->latency_ns / 2);
    t->vruntime = max_vruntime(t->vruntime, floor);
}

/* clear_buddies: t runs, sleeps or leaves this queue. */
static void cfs_clear_buddies(RunQueue *rq, const Task *t)
{
    if (rq->next_buddy == t)
        rq->next_buddy = NULL;
    if (rq->last_buddy == t)
        rq->last_buddy = NULL;
}

static void cfs_on_dequeue(RunQueue *rq, Task *t)
{
    cfs_clear_buddies(rq, t);
}

static bool cfs_update_curr(RunQueue *rq)
{
    return false;
}

static void cfs_set_curr(RunQueue *rq, Task *t)
{
    cfs_clear_buddies(rq, t);
}

/* wakeup_preempt_entity(buddy, left) < 1: running the buddy is not unfair to the leftmost. */
static bool cfs_buddy_fair(const RunQueue *rq, const Task *buddy, const Task *left)
{
    return buddy && buddy->on_rq && vdiff(buddy->vruntime, left->vruntime) <= rq->wakeup_granularity_ns;
}

/* pick_next_entity (<= 6.5): the leftmost, unless a buddy may run instead. */
static Task *cfs_pick(RunQueue *rq)
{
    /* The previous task was put back into the tree first, so it loses ties. */
    Task *best = leftmost_other(rq);
    Task *curr = rq->curr && rq->curr->on_rq ? rq->curr : NULL;
    if (curr && (!best || vdiff(curr->vruntime, best->vruntime) < 0))
        best = curr;
    if (cfs_buddy_fair(rq, rq->next_buddy, best))
        return rq->next_buddy;
    if (cfs_buddy_fair(rq, rq->last_buddy, best))
        return rq->last_buddy;
    return best;
}

/* check_preempt_tick() */
static bool cfs_tick(RunQueue *rq)
{
    Task *curr = rq->curr;
    if (rq->nr_running < 2 || !curr || !curr->on_rq)
        return false;
    sim_time_t ideal = rq_cfs_slice(rq);
    sim_time_t delta_exec = curr->runtime_ns - curr->slice_start;
    if (delta_exec > ideal)
        return true;
    if (delta_exec < rq->min_granularity_ns)
        return false;
    Task *left = leftmost_other(rq);
    int64_t delta = left ? vdiff(curr->vruntime, left->vruntime) : -1;
    return delta > ideal;
}

/* check_preempt_wakeup() -> wakeup_preempt_entity() == 1; a preempting wake-up marks the
 * woken task the next buddy, and with sched_nr_latency or more queued the preempted one the
 * last buddy. */
static bool cfs_wakeup_preempt(RunQueue *rq, Task *woken)
{
    Task *curr = rq->curr;
    if (!curr)
        return true;
    if (curr == woken || !curr->on_rq)
        return false; /* curr is about to sleep: the CPU reschedules anyway */
    if (vdiff(curr->vruntime, woken->vruntime) <= rq->wakeup_granularity_ns)
        return false;
    rq->next_buddy = woken;
    if (rq->nr_running >= rq->nr_latency)
        rq->last_buddy = curr;
    return true;
}

static const SchedOps cfs_ops = {
    .name = "cfs",
    .place_new = cfs_place_new,
    .place_wakeup = cfs_place_wakeup,
    .on_dequeue = cfs_on_dequeue,
    .update_curr = cfs_update_curr,
    .set_curr = cfs_set_curr,
    .pick = cfs_pick,
    .tick = cfs_tick,
    .wakeup_preempt = cfs_wakeup_preempt,
};

/* ---- EEVDF --------------------------------------------------------------------------------- */

/* Sum of (v - min_vruntime) over the queue, curr included: avg_vruntime's numerator (all
 * weights equal), kept for the tree as tasks come and go (avg_vruntime_add/sub). */
static int64_t eevdf_key_sum(const RunQueue *rq)
{
    const Task *curr = rq->curr && rq->curr->on_rq ? rq->curr : NULL;
    return rq->tree_key_sum + (curr ? vdiff(curr->vruntime, rq->min_vruntime) : 0);
}

uint64_t rq_avg_vruntime(const RunQueue *rq)
{
    int64_t n = rq->nr_running;
    if (n == 0)
        return rq->min_vruntime;
    int64_t avg = eevdf_key_sum(rq);
    if (avg < 0)
        avg -= n - 1; /* floor, not truncation */
    return rq->min_vruntime + (uint64_t)(avg / n);
}

/* entity_eligible(): V - v >= 0, compared without dividing (key_sum = eevdf_key_sum(rq)). */
static bool eevdf_eligible(const RunQueue *rq, const Task *t, int64_t key_sum)
{
    return key_sum >= vdiff(t->vruntime, rq->min_vruntime) * (int64_t)rq->nr_running;
}

static void eevdf_place(RunQueue *rq, Task *t, bool initial)
{
    uint64_t v = rq_avg_vruntime(rq);
    int64_t lag = 0;
    if (rq->nr_running > 0) {
        int64_t n = rq->nr_running;
        lag = t->vlag * (n + 1) / n; /* div_s64 truncates toward zero */
    }
    t->vruntime = v - (uint64_t)lag;
    sim_time_t vslice = initial ? rq->base_slice_ns / 2 : rq->base_slice_ns;
    t->deadline = t->vruntime + (uint64_t)vslice;
}

static void eevdf_place_new(RunQueue *rq, Task *t)
{
    t->vlag = 0;
    eevdf_place(rq, t, true);
}

static void eevdf_place_wakeup(RunQueue *rq, Task *t)
{
    eevdf_place(rq, t, false);
}

/* update_entity_lag() at sleep: lag = V - v, clamped to max(2 * slice, TICK_NSEC). */
static void eevdf_on_dequeue(RunQueue *rq, Task *t)
{
    int64_t limit = 2 * rq->base_slice_ns > rq->tick_ns ? 2 * rq->base_slice_ns : rq->tick_ns;
    int64_t lag = vdiff(rq_avg_vruntime(rq), t->vruntime);
    t->vlag = lag > limit ? limit : lag < -limit ? -limit : lag;
}

/* update_deadline(): a reached deadline gets a new request and, with others waiting, a resched. */
static bool eevdf_update_curr(RunQueue *rq)
{
    Task *curr = rq->curr;
    if (!curr || !curr->on_rq || vdiff(curr->vruntime, curr->deadline) < 0)
        return false;
    curr->deadline = curr->vruntime + (uint64_t)rq->base_slice_ns;
    return rq->nr_running > 1;
}

static void eevdf_set_curr(RunQueue *rq, Task *t)
{
    /* RUN_TO_PARITY: remember the deadline t was picked with (the kernel stashes it in vlag). */
    t->vlag = (int64_t)t->deadline;
}

/* pick_eevdf(): the eligible task with the earliest deadline. Among the waiting tasks (the
 * tree) ties go to the earliest queued; curr competes last. On the wake-up path (protect_curr)
 * RUN_TO_PARITY applies and curr wins equal deadlines, as in the kernel's pick with curr still
 * set; in __schedule() curr was put back into the tree first and loses ties. */
static Task *eevdf_pick_from(RunQueue *rq, bool protect_curr)
{
    int64_t key_sum = eevdf_key_sum(rq);
    Task *curr = rq->curr && rq->curr->on_rq ? rq->curr : NULL;
    if (curr && !eevdf_eligible(rq, curr, key_sum))
        curr = NULL;
    if (protect_curr && curr && curr->vlag == (int64_t)curr->deadline)
        return curr;
    Task *best = rqtree_pick_eligible(rq->tree, rq->min_vruntime, key_sum, rq->nr_running);
    if (curr && (!best || vdiff(curr->deadline, best->deadline) < (protect_curr ? 1 : 0)))
        best = curr;
    return best ? best : rq->head; /* some task is always eligible; the fallback is defensive */
}

static Task *eevdf_pick(RunQueue *rq)
{
    return eevdf_pick_from(rq, false);
}

static bool eevdf_tick(RunQueue *rq)
{
    return false; /* the deadline check is in update_curr, which the tick runs first */
}

static bool eevdf_wakeup_preempt(RunQueue *rq, Task *woken)
{
    if (!rq->curr)
        return true;
    if (rq->curr == woken || !rq->curr->on_rq)
        return false;
    return eevdf_pick_from(rq, true) == woken;
}

static const SchedOps eevdf_ops = {
    .name = "eevdf",
    .place_new = eevdf_place_new,
    .place_wakeup = eevdf_place_wakeup,
    .on_dequeue = eevdf_on_dequeue,
    .update_curr = eevdf_update_curr,
    .set_curr = eevdf_set_curr,
    .pick = eevdf_pick,
    .tick = eevdf_tick,
    .wakeup_preempt = eevdf_wakeup_preempt,
};

/* ---- the run queue ------------------------------------------------------------------------- */

void rq_init(RunQueue *rq, const SchedConf *conf, uint32_t ncpus, uint32_t hz)
{
    sim_time_t f = sched_tunable_factor(ncpus);
    *rq = (RunQueue){
        .ops = conf->policy == SCHED_EEVDF ? &eevdf_ops : &cfs_ops,
        .latency_ns = conf->latency_ns * f,
        .min_granularity_ns = conf->min_granularity_ns * f,
        .wakeup_granularity_ns = conf->wakeup_granularity_ns * f,
        .base_slice_ns = conf->base_slice_ns * f,
        .tick_ns = SIM_S / hz,
        .delay_dequeue = conf->delay_dequeue && conf->policy == SCHED_EEVDF,
        .nr_latency = conf->min_granularity_ns
                          ? (uint32_t)((conf->latency_ns + conf->min_granularity_ns - 1) /
                                       conf->min_granularity_ns)
                          : 1,
    };
}

bool rq_update_curr(RunQueue *rq, sim_time_t delta_ns)
{
    Task *curr = rq->curr;
    if (!curr || !curr->on_rq)
        return false;
    curr->vruntime += (uint64_t)delta_ns;
    update_min_vruntime(rq);
    return rq->ops->update_curr(rq);
}

uint32_t rq_nr_runnable(const RunQueue *rq)
{
    return rq->nr_running - rq->nr_delayed;
}

void rq_share_waiting_count(RunQueue *rq, uint32_t *count)
{
    g_assert(rq->nr_running == 0 && !rq->waiting);
    rq->nr_waiting_rqs = count;
}

/* After every change of the queue or of curr: is a task waiting (queued, not running)? */
static void note_waiting(RunQueue *rq)
{
    uint32_t running = rq->curr && rq->curr->on_rq && !rq->curr->sched_delayed ? 1 : 0;
    bool waiting = rq_nr_runnable(rq) > running;
    if (waiting == rq->waiting)
        return;
    rq->waiting = waiting;
    if (rq->nr_waiting_rqs)
        *rq->nr_waiting_rqs = waiting ? *rq->nr_waiting_rqs + 1 : *rq->nr_waiting_rqs - 1;
}

static void enqueue(RunQueue *rq, Task *t)
{
    g_assert(!t->on_rq);
    t->on_rq = true;
    list_append(rq, t);
    if (t != rq->curr) /* a curr woken before it was switched out stays out of the tree */
        tree_add(rq, t);
    rq->nr_running++;
    note_waiting(rq);
}

void rq_enqueue_new(RunQueue *rq, Task *t)
{
    rq->ops->place_new(rq, t);
    enqueue(rq, t);
}

/* requeue_delayed_entity(): a delayed sleeper woken while still queued. DELAY_ZERO: its lag is
 * taken now, and a positive one is dropped: the task is placed again at V (computed without
 * it) with a fresh request. Otherwise it keeps its vruntime and deadline. */
static void requeue_delayed(RunQueue *rq, Task *t)
{
    g_assert(t->sched_delayed && t != rq->curr);
    rq->ops->on_dequeue(rq, t); /* update_entity_lag */
    if (t->vlag > 0) {
        tree_del(rq, t);
        rq->nr_running--;
        t->vlag = 0;
        eevdf_place(rq, t, false);
        rq->nr_running++;
        tree_add(rq, t);
    }
    t->sched_delayed = false;
    rq->nr_delayed--;
    note_waiting(rq);
}

void rq_enqueue_wakeup(RunQueue *rq, Task *t)
{
    if (t->sched_delayed) {
        requeue_delayed(rq, t);
        return;
    }
    rq->ops->place_wakeup(rq, t);
    enqueue(rq, t);
}

static void queue_remove(RunQueue *rq, Task *t)
{
    if (t != rq->curr)
        tree_del(rq, t);
    list_remove(rq, t);
    t->on_rq = false;
    rq->nr_running--;
    update_min_vruntime(rq);
    note_waiting(rq);
}

void rq_dequeue_sleep(RunQueue *rq, Task *t)
{
    g_assert(t->on_rq && !t->sched_delayed);
    if (rq->delay_dequeue && !eevdf_eligible(rq, t, eevdf_key_sum(rq))) {
        t->sched_delayed = true; /* set_delayed(): queued, competing, its lag not yet taken */
        rq->nr_delayed++;
        note_waiting(rq);
        return;
    }
    rq->ops->on_dequeue(rq, t);
    queue_remove(rq, t);
}

/* The pick chose a delayed sleeper: dequeue it for good (update_entity_lag, then DELAY_ZERO's
 * cut of a positive lag to 0 in finish_delayed_dequeue_entity). */
static void finish_delayed_dequeue(RunQueue *rq, Task *t)
{
    rq->ops->on_dequeue(rq, t);
    if (t->vlag > 0)
        t->vlag = 0;
    t->sched_delayed = false;
    rq->nr_delayed--;
    queue_remove(rq, t);
}

void rq_migrate(const RunQueue *from, const RunQueue *to, Task *t)
{
    g_assert(!t->on_rq);
    if (from->ops == &cfs_ops)
        t->vruntime = t->vruntime - from->min_vruntime + to->min_vruntime;
}

void rq_migrate_queued(RunQueue *from, RunQueue *to, Task *t)
{
    g_assert(t->on_rq && t != from->curr);
    bool cfs = from->ops == &cfs_ops;
    uint64_t rel = t->vruntime - from->min_vruntime;
    from->ops->on_dequeue(from, t); /* EEVDF: the lag; CFS: the buddies */
    tree_del(from, t);
    list_remove(from, t);
    t->on_rq = false;
    from->nr_running--;
    update_min_vruntime(from);
    note_waiting(from);
    if (cfs)
        t->vruntime = rel + to->min_vruntime;
    else
        to->ops->place_wakeup(to, t);
    enqueue(to, t);
}

void rq_resync(RunQueue *rq)
{
    while (rq->tree)
        rqtree_remove(&rq->tree, rq->tree);
    rq->tree_n = 0;
    rq->tree_key_sum = 0;
    for (Task *p = rq->head; p; p = p->rq_next)
        if (p != rq->curr)
            tree_add(rq, p);
}

/* Debug builds: the incremental sum and count are what a scan of the queue gives. */
static void check_tree(const RunQueue *rq)
{
#ifdef SKSIM_CHECK_INVARIANTS
    int64_t sum = 0;
    uint32_t n = 0;
    for (const Task *p = rq->head; p; p = p->rq_next)
        if (p != rq->curr) {
            sum += vdiff(p->vruntime, rq->min_vruntime);
            n++;
        }
    g_assert_cmpint(sum, ==, rq->tree_key_sum);
    g_assert_cmpuint(n, ==, rq->tree_n);
#else
    (void)rq;
#endif
}

Task *rq_pick_next(RunQueue *rq)
{
    check_tree(rq);
    while (rq->nr_running) {
        Task *t = rq->ops->pick(rq);
        if (!t->sched_delayed)
            return t;
        finish_delayed_dequeue(rq, t);
    }
    return NULL;
}

void rq_set_curr(RunQueue *rq, Task *t)
{
    Task *prev = rq->curr;
    if (prev && prev->on_rq) {
        list_remove(rq, prev); /* put_prev_entity: back into the tree, after equal keys */
        list_append(rq, prev);
        tree_add(rq, prev);
    }
    if (t && t->on_rq)
        tree_del(rq, t); /* set_next_entity: curr leaves the tree */
    rq->curr = t;
    note_waiting(rq);
    if (!t)
        return;
    t->slice_start = t->runtime_ns; /* prev_sum_exec_runtime: the stint starts now */
    rq->ops->set_curr(rq, t);
}

bool rq_tick(RunQueue *rq)
{
    return rq->ops->tick(rq);
}

bool rq_wakeup_preempt(RunQueue *rq, Task *woken)
{
    return rq->ops->wakeup_preempt(rq, woken);
}
