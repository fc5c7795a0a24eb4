/* `htab-torture merge OUT DIR...`: join the run directories of shards into one run. */
#ifndef HT_MERGE_H
#define HT_MERGE_H
int cmd_merge(int argc, char **argv);
#endif
