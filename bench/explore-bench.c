/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore-bench.c - time `explore` on the "pidfd thieves" scenario, the
 * twin of bench/spin/pidfd.pml.  Built and run by scripts/bench-explore.sh.
 *
 *   kernel K; mkdir /d; touch /d/f1 .. /d/fFILES
 *   spawn A; A: open /d                       (fd 3)
 *   for each thief T: spawn T; T: pidfd_open A (fd 3, in the foreground)
 *   A: getdents 3 PER &   (CALLS times)
 *   T: pidfd_getfd 3 3 &  then  T: getdents 4 PER &  (CALLS times)
 *
 * Usage: explore-bench [-k KERNEL] [-t THIEVES] [-f FILES] [-c CALLS]
 *          [-p PER] [-j JOBS] [-n (naive)] [-m MAX] [-b BOUND] [-r REPEAT]
 *          [-s (stateful)] [-H BITS (visited table, stateful)]
 *          [-F (stateful: stop at the first violation, then the shortest
 *          counterexample, as plain `explore` does)]
 * Prints one line: explore kernel=... executions=N seconds=S ...
 * (stateful: explore-state kernel=... states=N transitions=N seconds=S ...
 * worker_states=N/N worker_cpu=S/S, the last run's split, cpu=S, the
 * process's CPU seconds; with -r, the best of the runs and the median).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "explore.h"
#include "world_layout.h"   /* a benchmark of core/: it reads the fields */

static void fg(struct vfs_world *w, int tid, const struct vfs_call *c)
{
	vfs_submit(w, tid, c);
	while (vfs_has_work(w, tid))
		vfs_step(w, tid, NULL);
}

int main(int argc, char **argv)
{
	const char *kernel = "v6.5";
	int thieves = 3, files = 30, calls = 3, per = 2, jobs = 0, naive = 0;
	int bound = -1, repeat = 1, stateful = 0, bits = 0, first = 0, opt;
	unsigned long long max = 0;
	while ((opt = getopt(argc, argv, "k:t:f:c:p:j:nm:b:r:sH:F")) != -1) {
		switch (opt) {
		case 'k': kernel = optarg; break;
		case 't': thieves = atoi(optarg); break;
		case 'f': files = atoi(optarg); break;
		case 'c': calls = atoi(optarg); break;
		case 'p': per = atoi(optarg); break;
		case 'j': jobs = atoi(optarg); break;
		case 'n': naive = 1; break;
		case 'm': max = strtoull(optarg, NULL, 10); break;
		case 'b': bound = atoi(optarg); break;
		case 'r': repeat = atoi(optarg); break;
		case 's': stateful = 1; break;
		case 'H': bits = atoi(optarg); break;
		case 'F': first = 1; stateful = 1; break;
		default: return 2;
		}
	}
	const struct vfs_preset *p = vfs_preset_lookup(kernel);
	if (!p) {
		fprintf(stderr, "explore-bench: no kernel %s\n", kernel);
		return 2;
	}
	static struct vfs_world w;
	vfs_world_init(&w, p);
	vfs_setup_mkdir(&w, "/d", false);
	for (int i = 1; i <= files; i++) {
		char path[32];
		snprintf(path, sizeof path, "/d/f%d", i);
		vfs_setup_touch(&w, path, false);
	}
	vfs_spawn(&w, "A", 1000);
	int a = vfs_thread_by_name(&w, "A");
	struct vfs_call c = { .sys = SYS_OPEN, .a = { 0, VO_RDONLY | VO_DIRECTORY } };
	vfs_call_set_str(&w, &c, 0, "/d");
	fg(&w, a, &c);
	int pid_a = w.procs[vfs_proc_by_name(&w, "A")].pid;
	int tids[16];
	for (int i = 0; i < thieves; i++) {
		char name[8];
		snprintf(name, sizeof name, "%c", 'B' + i);
		vfs_spawn(&w, name, 1000);
		tids[i] = vfs_thread_by_name(&w, name);
		struct vfs_call po = { .sys = SYS_PIDFD_OPEN, .a = { pid_a } };
		fg(&w, tids[i], &po);
	}
	struct vfs_call gd = { .sys = SYS_GETDENTS, .a = { 3, per } };
	for (int k = 0; k < calls; k++)
		vfs_submit(&w, a, &gd);
	for (int i = 0; i < thieves; i++) {
		struct vfs_call pg = { .sys = SYS_PIDFD_GETFD, .a = { 3, 3 } };
		vfs_submit(&w, tids[i], &pg);
		struct vfs_call g4 = { .sys = SYS_GETDENTS, .a = { 4, per } };
		for (int k = 0; k < calls; k++)
			vfs_submit(&w, tids[i], &g4);
	}
	struct vfs_explore_opts o;
	vfs_explore_opts_init(&o);
	o.jobs = jobs;
	o.naive = naive;
	o.max = max;
	o.bound = bound;
	o.stateful = stateful;
	o.state_bits = bits;
	o.first = first;
	struct vfs_explore_result r;
	double best = 1e9, secs[256];
	if (repeat < 1)
		repeat = 1;
	if (repeat > 256)
		repeat = 256;
	for (int i = 0; i < repeat; i++) {
		if (vfs_explore(&w, &o, &r) < 0) {
			perror("explore");
			return 1;
		}
		secs[i] = r.seconds;
		if (r.seconds < best)
			best = r.seconds;
		if (i + 1 < repeat)
			vfs_explore_result_free(&r);
	}
	if (stateful) {
		for (int i = 1; i < repeat; i++)    /* median */
			for (int j = i; j > 0 && secs[j - 1] > secs[j]; j--) {
				double t = secs[j];
				secs[j] = secs[j - 1];
				secs[j - 1] = t;
			}
		printf("explore-state kernel=%s thieves=%d files=%d calls=%d per=%d "
		       "jobs=%d states=%llu transitions=%llu matched=%llu probes=%llu "
		       "local=%llu depth=%d seconds=%.4f median=%.4f runs=%d "
		       "complete=%d cut=%d violating=%llu duplicate=%llu race=%llu "
		       "deaddir=%llu deadlock=%llu cex_len=%d collision_p=%.2g "
		       "subtrees=%d rounds=%d demoted=%d visible=%d hidden=%d "
		       "learn_runs=%d cex_pre=%d cex_steps=%d shortest=%d "
		       "short_nodes=%llu probe_execs=%llu probe_steps=%llu "
		       "retaken=%llu",
		       kernel, thieves, files, calls, per, r.jobs,
		       (unsigned long long)r.states,
		       (unsigned long long)r.transitions,
		       (unsigned long long)r.matched,
		       (unsigned long long)r.probes,
		       (unsigned long long)r.local_steps, r.state_depth, best,
		       secs[repeat / 2], repeat, r.complete, r.cut,
		       (unsigned long long)r.violating,
		       (unsigned long long)r.kind_execs[DK_DUPLICATE],
		       (unsigned long long)r.kind_execs[DK_RACE],
		       (unsigned long long)r.kind_execs[DK_DEADDIR],
		       (unsigned long long)r.kind_execs[DK_DEADLOCK],
		       r.have_cex ? r.cex_len : 0, r.collision_p, r.subtrees,
		       r.rounds, r.demoted, r.visible_locs, r.hidden_locs, r.learn_runs,
		       r.cex_preemptions, r.cex_steps, r.cex_shortest,
		       (unsigned long long)r.short_nodes,
		       (unsigned long long)r.probe_execs,
		       (unsigned long long)r.probe_steps,
		       (unsigned long long)r.retaken);
		/* the split of the last run: states and CPU seconds per worker */
		int nw = r.jobs < VFS_XWORKERS ? r.jobs : VFS_XWORKERS;
		for (int k = 0; k < 2; k++)
			for (int i = 0; i < nw; i++) {
				const char *sep = i ? "/" : k ? " worker_cpu=" : " worker_states=";
				if (k)
					printf("%s%.3f", sep, r.worker_cpu[i]);
				else
					printf("%s%llu", sep,
					       (unsigned long long)r.worker_states[i]);
			}
		/* the process's CPU seconds so far (set-up and every run) */
		struct rusage ru;
		getrusage(RUSAGE_SELF, &ru);
		printf(" cpu=%.3f\n", (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
		vfs_explore_result_free(&r);
		return 0;
	}
	printf("explore kernel=%s thieves=%d files=%d calls=%d per=%d jobs=%d mode=%s "
	       "executions=%llu outcomes=%llu redundant=%llu steps=%llu seconds=%.4f "
	       "rate=%.0f complete=%d violating=%llu duplicate=%llu race=%llu "
	       "deadlock=%llu cex=%llu cex_preemptions=%d subtrees=%d split=%d\n",
	       kernel, thieves, files, calls, per, r.jobs,
	       naive ? "naive" : bound >= 0 ? "bound" : "dpor",
	       (unsigned long long)r.executions, (unsigned long long)r.outcomes,
	       (unsigned long long)r.redundant, (unsigned long long)r.steps, best,
	       best > 0 ? (double)r.executions / best : 0.0, r.complete,
	       (unsigned long long)r.violating,
	       (unsigned long long)r.kind_execs[DK_DUPLICATE],
	       (unsigned long long)r.kind_execs[DK_RACE],
	       (unsigned long long)r.kind_execs[DK_DEADLOCK],
	       (unsigned long long)r.cex_index, r.cex_preemptions, r.subtrees,
	       r.split_depth);
	vfs_explore_result_free(&r);
	return 0;
}
