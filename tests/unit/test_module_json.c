/* module.json (debugfs htab_torture/results) parsing. */
#include "testlib.h"

#include "parse/module_json.h"

static void test_real_full_update(void **s)
{
	struct module_result m;
	char p[1024], err[256];
	const struct mod_latency *l;

	(void)s;
	fixture_path(p, sizeof(p), "module", "full_update_v2_tcg.json");
	assert_int_equal(module_result_load(&m, p, err, sizeof(err)), 0);
	assert_string_equal(m.status, "done");
	assert_string_equal(m.result, "SUCCESS");
	assert_string_equal(m.kernel_release, "6.1.0-57-amd64");
	assert_int_equal(m.ops, 648128);
	assert_float_equal(m.ops_per_sec, 215668.0, 1e-6);
	assert_int_equal(m.duration_ns, 3005210540ULL);
	assert_int_equal(m.nr_cpus, 2);
	assert_int_equal(m.nerrors, 1);
	assert_string_equal(m.errors[0].name, "E2BIG");
	assert_int_equal(m.errors[0].count, 648128);
	assert_int_equal(m.nfailures, 0);
	l = module_latency(&m, "update");
	assert_non_null(l);
	assert_int_equal(l->h.count, 648128);
	assert_true(l->h.has_minmax);
	assert_int_equal(l->h.min, 3340);
	assert_int_equal(l->h.max, 68929060);
	assert_null(module_latency(&m, "lookup"));
	module_result_free(&m);
}

/* A real kthread+nmi+irq run (churn, 2 vCPUs, TCG): callers[] a kind. */
static void test_real_callers(void **s)
{
	struct module_result m;
	char p[1024], err[256];
	const struct mod_caller *k, *n, *i;

	(void)s;
	fixture_path(p, sizeof(p), "module", "churn_callers_v2_tcg.json");
	assert_int_equal(module_result_load(&m, p, err, sizeof(err)), 0);
	assert_int_equal(m.ncallers, 3);
	k = module_caller(&m, "kthread");
	n = module_caller(&m, "nmi");
	i = module_caller(&m, "irq");
	assert_non_null(k);
	assert_non_null(n);
	assert_non_null(i);
	assert_null(module_caller(&m, "softirq"));
	assert_int_equal(k->ops, m.ops);	/* the workers' totals */
	assert_int_equal(k->calls, -1);		/* kthreads make no "calls" */
	assert_int_equal(k->unexpected_errors, 0);
	assert_int_equal(n->calls, 977);
	assert_int_equal(n->in_context, 977);
	assert_int_equal(n->ops, 2888);
	assert_int_equal(n->unexpected_errors, 0);
	assert_float_equal(n->calls_per_sec_per_cpu, 161.8, 1e-9);
	assert_int_equal(i->calls, 10591);
	assert_int_equal(i->ops, 31773);
	module_result_free(&m);
}

static void test_failure_and_errors(void **s)
{
	const char *doc = "{\"module\": \"htab_torture\", \"status\": \"done\", \"result\": \"FAILURE\","
			  " \"failures\": [\"lost elements: 4095 in map + 0 free != 4096\", \"x\"],"
			  " \"totals\": {\"ops\": 10, \"ops_per_sec\": 5, \"errors\": {\"E2BIG\": 3, \"E12\": 1}},"
			  " \"verdict\": {\"unexpected_errors\": 1, \"warns\": 0, \"corrupt\": 4,"
			  " \"double_alloc\": 0, \"walk_bad\": 2, \"e2big_not_full\": 9}}";
	json_t *root = json_loads(doc, 0, NULL);
	struct module_result m;
	char err[256];

	(void)s;
	assert_non_null(root);
	assert_int_equal(module_result_parse(&m, root, err, sizeof(err)), 0);
	json_decref(root);
	assert_string_equal(m.result, "FAILURE");
	assert_int_equal(m.nfailures, 2);
	assert_string_equal(m.first_failure, "lost elements: 4095 in map + 0 free != 4096");
	assert_int_equal(m.nerrors, 2);
	assert_int_equal(m.unexpected_errors, 1);
	assert_int_equal(m.warns, 0);
	assert_int_equal(m.corrupt, 4);
	assert_int_equal(m.double_alloc, 0);
	assert_int_equal(m.walk_bad, 2);
	assert_int_equal(m.e2big_not_full, 9);
	assert_int_equal(m.nlat, 0);
	module_result_free(&m);
}

static void test_bad_documents(void **s)
{
	struct module_result m;
	char err[256];
	json_t *root;

	(void)s;
	assert_int_equal(module_result_load(&m, "/nonexistent/module.json", err, sizeof(err)), -1);
	module_result_free(&m);
	root = json_loads("{\"status\": \"running\"}", 0, NULL);
	assert_int_equal(module_result_parse(&m, root, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "result"));
	module_result_free(&m);
	json_decref(root);
	root = json_loads("{\"status\": \"done\", \"result\": \"SUCCESS\", \"callers\": [{\"ops\": 1}]}",
			  0, NULL);
	assert_int_equal(module_result_parse(&m, root, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "callers[0]"));
	module_result_free(&m);
	json_decref(root);
	root = json_loads("{\"status\": \"done\", \"result\": \"SUCCESS\", \"latency_ns\":"
			  " {\"update\": {\"buckets\": [[8, 16, 1], [4, 8, 1]]}}}", 0, NULL);
	assert_int_equal(module_result_parse(&m, root, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "buckets"));
	module_result_free(&m);
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_full_update),
		cmocka_unit_test(test_real_callers),
		cmocka_unit_test(test_failure_and_errors),
		cmocka_unit_test(test_bad_documents),
	};

	return cmocka_run_group_tests_name("module_json", tests, NULL, NULL);
}
