// Command devsuite is the development protocol by which the project
// chooses every default, constant and threshold of train: k-fold
// cross-validation on training data only, never on a test set. It
// compares today's defaults (train with no extra flags) with a candidate
// given as extra train flags, and optionally a second baseline and
// LIBSVM, side by side:
//
//	go run ./bench/devsuite --candidate '--kernel seard+bias'
//	go run ./bench/devsuite --quick --candidate '--max-active 1000' --baseline '--kernel se'
//	go run ./bench/devsuite --sets usps,ijcnn --candidate '--kernel seard+bias' --libsvm --json r.json
//	go run ./bench/devsuite --list
//
// # The suite
//
// Every set is a training part; go run ./bench/devsuite --list prints
// them with their sizes.
//
//   - Generated tasks (package synth, data seed 1 whatever --seed is):
//     label noise (15% flips), imbalance (8% positives), irrelevant
//     features (4 of 40 relevant), a noisy 5-class task, and the curved
//     boundaries xor, circle and parabola in 2 of 8 features; 1500 to
//     3000 points, all of which are training data.
//   - The UCI sets of R's mlbench package (bench/mlbench), each the
//     training part of bench/mlbench's 70/30 class-stratified split with
//     seed 1, so that the test part bench/mlbench reports is never seen.
//     The CSV files come from --mlbench-dir (NAME.csv as R's write.csv
//     writes them) or, without one, from Rscript (Debian's
//     r-cran-mlbench); a set found in neither is skipped with a line
//     saying so. Satellite and Shuttle run on 2000 and 5000 points of
//     their training parts; LetterRecognition (5000 points) and
//     Shuttle-full (all 40,600 points of Shuttle's) are opt-in (--sets).
//   - USPS's training file (all 7291 points) and 10,000 of IJCNN1's
//     49,990 training points, from --data-dir (../shared/data, see its
//     README.md); MNIST (10,000 of its 60,000 training images) with
//     --mnist. A set whose file is absent is skipped with a line saying
//     so.
//
// A subsample is drawn at random with --seed. Classes with fewer than k
// points are then dropped (a fold could not train on them; the report
// names them: Shuttle's two smallest). --quick runs the small suite of a
// few minutes: five generated tasks on 600-800 points, Sonar, Glass,
// PimaIndiansDiabetes, 1500 USPS and 2000 IJCNN1 points.
//
// # The protocol
//
// The points are split into k folds (--k, default 5) stratified by
// class: each class is shuffled with --seed (default 1) and dealt to the
// folds in turn, so every fold holds each class's share to within one
// point. For each fold every column trains on the other k − 1 folds and
// predicts the fold: a passgp-fast binary built once from
// ./cmd/passgp-fast runs `train --quiet --data F --model M FLAGS` and
// `predict`, as subprocesses on LIBSVM text files, so the suite depends
// on the command line only. train's own --seed stays at its default
// unless --train-seed sets it for every column: train's random initial
// active set and batches move its models too, and two seeds of the same
// defaults differ by up to two standard errors on some sets, so a
// candidate that differs by that much is run again with another seed.
// From predict's probabilities each point gets its 0/1 error (of
// predict's class), Brier score Σ_c (p_c − [y = c])² and NLP
// −log max(p_y, 1e-300), eval's figures (eval computes NLP from the
// latents; they agree to 1e-6 where no probability underflows).
// Training time is the wall time of train. LIBSVM (--libsvm) scales
// each fold with svm-scale fitted on its training part, picks C in
// {1, 10, 100} and γ in {1/4, 1, 4, 16}/d by svm-train's 5-fold
// cross-validation accuracy (on at most 5000 points), and scores
// svm-train -b 1's probabilities; its time includes the grid.
//
// # Reading the report
//
// Per set and column: the mean over the k folds ± its standard error
// (sample standard deviation / √k) of error, Brier, NLP and training
// seconds. Per set, the paired difference candidate − defaults (and
// candidate − baseline): the mean over folds of the fold differences ±
// SE, where SE is the larger of the fold-paired standard error (k
// differences) and the point-paired one (the N out-of-fold points'
// differences): the first holds the variation between training sets on
// few values, the second many values without it. A negative difference
// means the candidate is better; + marks it better by more than one SE,
// - worse. xN is the ratio of total training times.
//
// Per passgp-fast column, the held-out estimate of the error that train
// printed, from each fold's training part alone, and its excess over the
// error on the fold's test part (mean over folds ± SE, the larger of the
// folds' standard error and the binomial one of the two error rates,
// √(h(1−h)/n + e(1−e)/N), which bench/mlbench applies to a test split):
// whether the estimate that users compare settings by is right on this
// set, judged on training data. The cache keeps it with each run.
//
// The summary line counts the sets where the candidate is better or
// worse by more than 1 SE in error, Brier and NLP, gives the unweighted
// mean differences over sets and the geometric mean of the time ratios.
// A change of default is argued from it: better on some sets, worse on
// none beyond 1 SE, at an acceptable time ratio; a set's test part is
// consulted only afterwards, to report.
//
// # Comparing builds
//
// --candidate-bin runs the candidate column with another passgp-fast
// binary, a build of the code a change proposes, so that removing or
// changing a rule in the code is judged in the same paired report as a
// change of flags. With --cache DIR, every train and predict run is kept
// under a key of the binary's bytes, the flags and the fold's files, so
// that later runs with the same --cache reuse the defaults column and
// rerun only what changed. A reused run keeps the training time of the
// sitting that ran it, so compare times only between columns run in one
// sitting:
//
//	go build -o /tmp/a ./cmd/passgp-fast   # today's code
//	go build -o /tmp/b ./cmd/passgp-fast   # in the change's work tree
//	go run ./bench/devsuite --cache /tmp/ds --bin /tmp/a --candidate-bin /tmp/b
//
// The subsample sizes above hold the default suite (k = 5, defaults
// against one candidate) to about 20 minutes on 2 cores: defaults against
// --kernel seard+bias took 1089 s while other jobs shared the 2 cores
// (load average 3 to 13), USPS, IJCNN1 and the 5-class task the longest;
// the --quick suite took 221 s.
package main
