/* `htab-torture run`: resolve the environment, plan the matrix, run its cells. */
#ifndef HT_RUN_H
#define HT_RUN_H
int cmd_run(int argc, char **argv);
#endif
