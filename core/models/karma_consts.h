/* Indices of the Karma model's state variables and parameters (core/models/karma.h). */
#ifndef CARDIAC_MODEL_KARMA_CONSTS_H
#define CARDIAC_MODEL_KARMA_CONSTS_H
enum { KARMA_U, KARMA_V, KARMA_NSTATE };
enum { KARMA_GAMMA, KARMA_VSTAR, KARMA_XM, KARMA_EPS, KARMA_UH, KARMA_UV, KARMA_NPARAM };
#endif
