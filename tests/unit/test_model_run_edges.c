/*
 * test_model_run_edges: run_length's tables (gen_run_ys, gen_run_edges,
 * gen_run_left, gen_run_left0: gen_internal.h) give the length the plain formula gives
 * (round(RUN^-1(U^a * cap)) - 1, at least 0: run_length's code before
 * them, kept here as the reference), and gen_run_edge_at the edge the
 * walk from edge 0 finds, at every U asked: random ones, the
 * draws' ends (0, the last double below 1, 1 itself: a stratified draw
 * can round up to it), and at and around every U where the length
 * changes (found by bisection of the reference over the doubles, then up
 * to 4 doubles either side) and every edge of the table.  Over the
 * eleven real traces' run CDFs, shares and exponents (their models at
 * /tmp/r20/cmp/a-*.json, as gen_space_init makes them: the regions',
 * a re-using read's and write's), each with every exponent 2^-20 ..
 * 2^20 by quarter powers too, and random CDFs (integer and fractional
 * values, point masses, gaps, a last knot below 1), one-knot and empty
 * ones, shares below 1.  Prints how many random U the table answered.
 */
#include <math.h>
#include <string.h>

#include "model/gen_internal.h"
#include "tests/unit/unit.h"

/* a device's run CDF (nk knots v, c), its share below its long runs (cap)
 * and the exponents of its tables but no region's (1) */
struct real {
	uint32_t nk;
	double cap;
	double v[MODEL_DIST_MAXK], c[MODEL_DIST_MAXK];
	uint32_t na;
	double a[MODEL_MAX_REGIONS + 2];
};

static const struct real reals[] = {
    /* blkparse */
    {11,
     0x1.c9883ep-1,
     {0x1p+0, 0x1p+0, 0x1p+1, 0x1p+1, 0x1.8p+1, 0x1.8p+1, 0x1.ap+3, 0x1.ap+3, 0x1.2p+4, 0x1.2p+4,
      0x1.ap+4},
     {0x0p+0, 0x1.3950331e3a7dbp-1, 0x1.3950331e3a7dbp-1, 0x1.767296f6512a9p-1,
      0x1.767296f6512a9p-1, 0x1.c5a1cac083127p-1, 0x1.ca81dc0db2703p-1, 0x1.d9ca7d6733ebcp-1,
      0x1.d9ca7d6733ebcp-1, 0x1.f4395810624ddp-1, 0x1p+0},
     26,
     {0x1.2e533cp-2, 0x1.2e533cp-2, 0x1.0eeb72p+0, 0x1.1026bp-3,  0x1.826076p-1, 0x1.1026bp-3,
      0x1.82f92p+6,  0x1.82f92p+6,  0x1.82f92p+6,  0x1p+0,	  0x1.82f92p+6,	 0x1.a8d0d8p+1,
      0x1.82f92p+6,  0x1.0eeb72p+0, 0x1.82f92p+6,  0x1.c691a2p-2, 0x1.82f92p+6,	 0x1.c691a2p-2,
      0x1.82f92p+6,  0x1.c691a2p-2, 0x1.82f92p+6,  0x1.c691a2p-2, 0x1.82f92p+6,	 0x1.82f92p+6,
      0x0p+0,	     0x0p+0}},
    /* blktrace */
    {7,
     0x1p+0,
     {0x1p+0, 0x1p+0, 0x1p+1, 0x1p+1, 0x1.8p+1, 0x1.8p+1, 0x1.4p+2},
     {0x0p+0, 0x1.bea35935fc3b5p-1, 0x1.bea35935fc3b5p-1, 0x1.ea367e414e7efp-1,
      0x1.ea367e414e7efp-1, 0x1.f74bc6a7ef9dbp-1, 0x1p+0},
     9,
     {0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x0p+0, 0x0p+0}},
    /* boot-nspawn */
    {17,
     0x1.e1cd3ep-1,
     {0x1p+0, 0x1p+0, 0x1p+1, 0x1p+1, 0x1.8p+1, 0x1.8p+1, 0x1.4p+2, 0x1.4p+2, 0x1p+3, 0x1p+3,
      0x1p+4, 0x1p+4, 0x1.2p+4, 0x1.2p+4, 0x1.bp+4, 0x1.bp+4, 0x1.a8p+5},
     {0x0p+0, 0x1.76bbfd71b0468p-1, 0x1.76bbfd71b0468p-1, 0x1.ce9595feda661p-1,
      0x1.ce9595feda661p-1, 0x1.dcac083126e98p-1, 0x1.ddaf07bfe7e2p-1, 0x1.e1cd3e0bd449ap-1,
      0x1.e1cd3e0bd449ap-1, 0x1.e4dd2f1a9fbe7p-1, 0x1.ea09aaa3ad18dp-1, 0x1.ee978d4fdf3b6p-1,
      0x1.ef8726d04e619p-1, 0x1.f2b020c49ba5ep-1, 0x1.f6642bf9830e4p-1, 0x1.f95810624dd2fp-1,
      0x1p+0},
     30,
     {0x1.209efap+1, 0x1.00d8p+6,   0x1.00d8p+6,   0x1.00d8p+6,	  0x1.00d8p+6,	 0x1.66859ap-5,
      0x1.66859ap-5, 0x1.00d8p+6,   0x1.00d8p+6,   0x1.91524ep-3, 0x1.00d8p+6,	 0x1.4cccd4p+0,
      0x1.8fe23ap-1, 0x1.85423ap+0, 0x1.a122aep+1, 0x1.3d2cc6p+0, 0x1.390b7p+1,	 0x1.6e38c4p+2,
      0x1.1558f4p+0, 0x1.33f616p-2, 0x1.922a6ep-2, 0x1.6f1a5p-3,  0x1.67a1e4p-1, 0x1.00d8p+6,
      0x1.00d8p+6,   0x1p+0,	    0x1.66859ap-5, 0x1.66859ap-5, 0x0p+0,	 0x0p+0}},
    /* boot */
    {11,
     0x1.fe5c5ap-1,
     {0x1p+0, 0x1p+0, 0x1p+1, 0x1p+1, 0x1.8p+1, 0x1.8p+1, 0x1p+2, 0x1p+2, 0x1.4p+2, 0x1.4p+2,
      0x1.dp+4},
     {0x0p+0, 0x1.bba29c779a6b5p-1, 0x1.bba29c779a6b5p-1, 0x1.ebd5bab21815ap-1,
      0x1.ebd5bab21815ap-1, 0x1.f725a250f8402p-1, 0x1.f725a250f8402p-1, 0x1.fb92c061847f5p-1,
      0x1.fb92c061847f5p-1, 0x1.fe086bdf4c2b5p-1, 0x1p+0},
     43,
     {0x1.5d0fd4p+0, 0x1.1e652cp+5, 0x1.1e652cp+5, 0x1.1e652cp+5, 0x1.1e652cp+5, 0x1.1e652cp+5,
      0x1.2a58ep+0,  0x1.f51f8ap+1, 0x1.5d0fd4p+0, 0x1.1cd29ep-1, 0x1.4be80ap-2, 0x1.125a34p-2,
      0x1.b63722p-3, 0x1.e51576p-3, 0x1.0593b2p-3, 0x1.dbc28p-2,  0x1.917e04p+1, 0x1.3526ecp+0,
      0x1.5d0fd4p+0, 0x1.3526ecp+0, 0x1.917e04p+1, 0x1.39879ap-1, 0x1.17b45ap-2, 0x1.1e652cp+5,
      0x1.1e652cp+5, 0x1.e7f8a4p-1, 0x1.41d4p+0,   0x1.949184p-3, 0x1.11d72p-1,	 0x1.06e434p-1,
      0x1.718452p-1, 0x1.a31372p+0, 0x1.a31372p+0, 0x1.985b9ap+1, 0x1.1e652cp+5, 0x1.1e652cp+5,
      0x1.1e652cp+5, 0x1.1e652cp+5, 0x1.d8da72p-2, 0x1.61aadp-1,  0x1.dfe32cp+0, 0x0p+0,
      0x0p+0}},
    /* chromium */
    {35,
     0x1.e22058p-1,
     {0x1p+0,	0x1p+0,	  0x1p+1,   0x1p+1,   0x1.8p+1, 0x1.8p+1, 0x1p+2,   0x1p+2,   0x1.4p+2,
      0x1.4p+2, 0x1.8p+2, 0x1.8p+2, 0x1.cp+2, 0x1.cp+2, 0x1p+3,	  0x1p+3,   0x1.2p+3, 0x1.2p+3,
      0x1.4p+3, 0x1.4p+3, 0x1.6p+3, 0x1.6p+3, 0x1.8p+3, 0x1.8p+3, 0x1.ap+3, 0x1.ap+3, 0x1.cp+3,
      0x1.cp+3, 0x1p+4,	  0x1p+4,   0x1.1p+4, 0x1.1p+4, 0x1.cp+4, 0x1.cp+4, 0x1.fp+5},
     {0x0p+0,
      0x1.8955d5f56a7adp-1,
      0x1.8955d5f56a7adp-1,
      0x1.aead70e6f2e8cp-1,
      0x1.aead70e6f2e8cp-1,
      0x1.b8a2a90cd423ep-1,
      0x1.b8a2a90cd423ep-1,
      0x1.bbf4666ec9e23p-1,
      0x1.bbf4666ec9e23p-1,
      0x1.c36c58eeae9eep-1,
      0x1.c36c58eeae9eep-1,
      0x1.ce35e74299d88p-1,
      0x1.ce35e74299d88p-1,
      0x1.d404ea4a8c155p-1,
      0x1.d404ea4a8c155p-1,
      0x1.d82b1f687b13ap-1,
      0x1.d82b1f687b13ap-1,
      0x1.dd25cc426351ep-1,
      0x1.dd25cc426351ep-1,
      0x1.e220578e5c4ebp-1,
      0x1.e220578e5c4ebp-1,
      0x1.e71b0468448cfp-1,
      0x1.e71b0468448cfp-1,
      0x1.e9984a0e410b6p-1,
      0x1.e9984a0e410b6p-1,
      0x1.edbe7f2c3009bp-1,
      0x1.edbe7f2c3009bp-1,
      0x1.f03bc4d22c882p-1,
      0x1.f1103c8e25c81p-1,
      0x1.f536501e2584fp-1,
      0x1.f536501e2584fp-1,
      0x1.f7ced916872bp-1,
      0x1.fbd9cae21101bp-1,
      0x1.fe76c8b439581p-1,
      0x1p+0},
     51,
     {0x1.9a1256p-2, 0x1.554b14p-2, 0x1p+0,	   0x1.af7d76p+1,  0x1.ca1318p+1, 0x1.af7d76p+1,
      0x1.4dcb58p+0, 0x1.ca1318p+1, 0x1.51d7fcp+1, 0x1.2700f8p+1,  0x1.ddc064p-2, 0x1.de71d2p+0,
      0x1.f3ea62p+1, 0x1.6bfcf4p+2, 0x1.289ba4p+2, 0x1.0ba266p+2,  0x1.6bfcf4p+2, 0x1.65404p+2,
      0x1.23fc1cp+2, 0x1.bfd39p+2,  0x1.0ba266p+2, 0x1.b167dap+0,  0x1.e744ecp-3, 0x1.036faep-7,
      0x1.2e282ap-5, 0x1.de9408p-5, 0x1p+0,	   0x1.de9408p-5,  0x1.bddf2p-5,  0x1.2e282ap-5,
      0x1.6fb2dcp-4, 0x1.2e282ap-5, 0x1.6f4e34p-3, 0x1.00000ep-20, 0x1.3fc57ep-4, 0x1.2f48fp-2,
      0x1.a56f56p-4, 0x1.036faep-7, 0x1.575e88p-6, 0x1.2e282ap-5,  0x1p+0,	  0x1.325666p+3,
      0x1.6fb2dcp-4, 0x1.6fb2dcp-4, 0x1.fe8dd8p-4, 0x1.2807c4p-4,  0x1p+0,	  0x1.100698p-6,
      0x1p+0,	     0x1.a00b0ep+5, 0x1.a00b0ep+5}},
    /* compile */
    {19,
     0x1.e6f35cp-1,
     {0x1p+0, 0x1p+0, 0x1p+1, 0x1p+1, 0x1.8p+1, 0x1.8p+1, 0x1p+2, 0x1p+2, 0x1.4p+2, 0x1.4p+2,
      0x1.8p+2, 0x1.8p+2, 0x1.cp+2, 0x1.cp+2, 0x1.cp+3, 0x1.cp+3, 0x1.ep+3, 0x1.ep+3, 0x1.9p+4},
     {0x0p+0, 0x1.5b9ef0f16f438p-1, 0x1.5b9ef0f16f438p-1, 0x1.a1af1886df82bp-1,
      0x1.a1af1886df82bp-1, 0x1.bf53825e13b19p-1, 0x1.bf53825e13b19p-1, 0x1.ca1af7d30ad47p-1,
      0x1.ca1af7d30ad47p-1, 0x1.d7944241c3efbp-1, 0x1.d7944241c3efbp-1, 0x1.dfa9c12f09d8cp-1,
      0x1.dfa9c12f09d8cp-1, 0x1.e5e353f7ced91p-1, 0x1.e7bf61aa3f035p-1, 0x1.ed230b9dc2f4p-1,
      0x1.ed230b9dc2f4p-1, 0x1.f3b645a1cac08p-1, 0x1p+0},
     16,
     {0x1.3ae26ap-1, 0x1.3d0442p+0, 0x1.67d988p+0, 0x1.0b2f36p+0, 0x1.a9609cp+0, 0x1.389d1p+1,
      0x1.6232e4p+2, 0x1.0ffd0cp-1, 0x1.b85b6ap-1, 0x1p+0, 0x1p+0, 0x1.814388p-7, 0x1.f1ee68p-5,
      0x1.587716p+6, 0x0p+0, 0x0p+0}},
    /* disksim */
    {2,
     0x1p+0,
     {0x1p+0, 0x1p+0},
     {0x0p+0, 0x1p+0},
     16,
     {0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0,
      0x1p+0, 0x1p+0, 0x1p+0, 0x0p+0, 0x0p+0}},
    {2,
     0x1p+0,
     {0x1p+0, 0x1p+0},
     {0x0p+0, 0x1p+0},
     15,
     {0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0,
      0x1p+0, 0x1p+0, 0x0p+0, 0x0p+0}},
    {2,
     0x1p+0,
     {0x1p+0, 0x1p+0},
     {0x0p+0, 0x1p+0},
     17,
     {0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0,
      0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x0p+0, 0x0p+0}},
    {11,
     0x1.e72eb4p-1,
     {0x1p+0, 0x1p+0, 0x1p+1, 0x1p+1, 0x1p+2, 0x1p+2, 0x1.4p+2, 0x1.4p+2, 0x1p+4, 0x1p+4, 0x1.9p+4},
     {0x0p+0, 0x1.7df7e80389f84p-1, 0x1.7df7e80389f84p-1, 0x1.a69a6f826edabp-1,
      0x1.a69a6f826edabp-1, 0x1.cf3cf70153bd1p-1, 0x1.cf3cf70153bd1p-1, 0x1.e2d0e56041893p-1,
      0x1.e79e7b80a9de9p-1, 0x1.fb645a1cac083p-1, 0x1p+0},
     10,
     {0x1.ffffe4p+19, 0x1.ffffe4p+19, 0x1.ffffe4p+19, 0x1.ffffe4p+19, 0x1.ffffe4p+19,
      0x1.ffffe4p+19, 0x1.ffffe4p+19, 0x1.ffffe4p+19, 0x1.a7ce18p-3, 0x1.a7ce18p-3}},
    /* fiu */
    {30,
     0x1.f868bep-1,
     {0x1p+0,	0x1p+0,	  0x1p+1,   0x1p+1,   0x1.8p+1,	 0x1.8p+1,   0x1p+2,   0x1p+2,
      0x1.4p+2, 0x1.4p+2, 0x1.8p+2, 0x1.8p+2, 0x1.cp+2,	 0x1.cp+2,   0x1p+3,   0x1p+3,
      0x1.2p+3, 0x1.2p+3, 0x1.4p+3, 0x1.4p+3, 0x1.cp+3,	 0x1.cp+3,   0x1.4p+4, 0x1.4p+4,
      0x1.ep+4, 0x1.ep+4, 0x1.4p+5, 0x1.4p+5, 0x1.bep+7, 0x1.87cp+10},
     {0x0p+0,
      0x1.3c31df761cbcdp-2,
      0x1.3c31df761cbcdp-2,
      0x1.6eb3dd11be6e6p-1,
      0x1.6eb3dd11be6e6p-1,
      0x1.8426bb55ac04p-1,
      0x1.8426bb55ac04p-1,
      0x1.8e878fabda0ep-1,
      0x1.8e878fabda0ep-1,
      0x1.93b81b64e0547p-1,
      0x1.93b81b64e0547p-1,
      0x1.9e7168f8e7dddp-1,
      0x1.9e7168f8e7dddp-1,
      0x1.a1e71044f1a1ap-1,
      0x1.a1e71044f1a1ap-1,
      0x1.a55cb790fb656p-1,
      0x1.a55cb790fb656p-1,
      0x1.a9dc0db2702a3p-1,
      0x1.a9dc0db2702a3p-1,
      0x1.d1fd36f7e3d1dp-1,
      0x1.d3b81b64e0547p-1,
      0x1.d6872b020c49cp-1,
      0x1.da4aada33bd9dp-1,
      0x1.e8f5c28f5c28fp-1,
      0x1.eb3e35c5b4aa9p-1,
      0x1.f2821f2990f3p-1,
      0x1.f4edf61240746p-1,
      0x1.f80b029281776p-1,
      0x1.ff7ced916872bp-1,
      0x1p+0},
     130,
     {0x1.93d03p+1,   0x1.51759ep+0, 0x1.7b50b8p+0, 0x1.6ab644p+0,  0x1.1b6e3p+2,   0x1.a552bep+2,
      0x1.6e0d8ep+2,  0x1.4f3e14p+1, 0x1.a5b6cp+0,  0x1.bbe022p+0,  0x1.a5b6cp+0,   0x1.a5b6cp+0,
      0x1.a5b6cp+0,   0x1.a5b6cp+0,  0x1.a5b6cp+0,  0x1.a5b6cp+0,   0x1.a5b6cp+0,   0x1.a5b6cp+0,
      0x1.a5b6cp+0,   0x1.a5b6cp+0,  0x1.0e9476p+1, 0x1.e933fep+0,  0x1.52413ep-4,  0x1.056df8p-13,
      0x1.34905p-6,   0x1.81260ap-7, 0x1.15f134p-8, 0x1.056df8p-13, 0x1.dec38p-6,   0x1.1eebbep-9,
      0x1.2582f6p-5,  0x1.918564p-5, 0x1.3636e8p-5, 0x1.0fb40ap-4,  0x1.af11dap-12, 0x1.7a9842p-6,
      0x1.0fb40ap-4,  0x1.39649ep-4, 0x1.a7ecc2p-3, 0x1.8233f2p-5,  0x1.1092c6p-3,  0x1.dfd45ap-5,
      0x1.7eb2fcp-3,  0x1.96317ap-4, 0x1.f51a74p-4, 0x1.86cb4cp-8,  0x1.0fb40ap-4,  0x1p+0,
      0x1p+0,	      0x1.4c1194p-4, 0x1p+0,	    0x1.918564p-5,  0x1.b71036p-5,  0x1p+0,
      0x1.f51a74p-4,  0x1p+0,	     0x1.4a9bf4p-3, 0x1.948446p-2,  0x1p+0,	    0x1.4dc93ap-5,
      0x1.34905p-6,   0x1.f51a74p-4, 0x1p+0,	    0x1p+0,	    0x1p+0,	    0x1p+0,
      0x1p+0,	      0x1p+0,	     0x1p+0,	    0x1p+0,	    0x1p+0,	    0x1p+0,
      0x1p+0,	      0x1p+0,	     0x1p+0,	    0x1p+0,	    0x1p+0,	    0x1p+0,
      0x1p+0,	      0x1p+0,	     0x1p+0,	    0x1.a969a4p+2,  0x1p+0,	    0x1p+0,
      0x1p+0,	      0x1p+0,	     0x1.918564p-5, 0x1p+0,	    0x1p+0,	    0x1p+0,
      0x1.a423fap-3,  0x1.ffaff2p-3, 0x1.f51a74p-4, 0x1p+0,	    0x1.948446p-2,  0x1.a423fap-3,
      0x1.ec176ap-3,  0x1.1eebbep-9, 0x1.d86f08p-4, 0x1.24eefp-7,   0x1.f51a74p-4,  0x1.c854dcp-4,
      0x1.38f692p-10, 0x1.ced916p-4, 0x1.07deccp-6, 0x1.4a9bf4p-3,  0x1.39649ep-4,  0x1.9e679p-5,
      0x1.11ff6ep-3,  0x1.f51a74p-4, 0x1.f51a74p-4, 0x1.0b1de4p-7,  0x1.f49a2cp-8,  0x1.56024cp-6,
      0x1.6d379ep-3,  0x1.15f134p-8, 0x1.cd14ccp-6, 0x1.42333ap-5,  0x1.051bdcp-1,  0x1.1b142cp+0,
      0x1.4c6e3p-1,   0x1.8f57c4p-1, 0x1.40426ep-1, 0x1.2f4f4ep-1,  0x1.5766acp-1,  0x1.58e332p+0,
      0x1.51270cp-1,  0x1.8f57c4p-1, 0x1.e96986p+1, 0x1.3afc8ep+1}},
    /* git */
    {32,
     0x1.db9fbap-1,
     {0x1p+0,	0x1p+0,	  0x1p+1,   0x1p+1,   0x1.8p+1, 0x1.8p+1, 0x1p+2,   0x1p+2,
      0x1.4p+2, 0x1.4p+2, 0x1.8p+2, 0x1.8p+2, 0x1.cp+2, 0x1.cp+2, 0x1p+3,   0x1p+3,
      0x1.2p+3, 0x1.2p+3, 0x1.6p+3, 0x1.6p+3, 0x1.8p+3, 0x1.8p+3, 0x1.ap+3, 0x1.ap+3,
      0x1.2p+4, 0x1.2p+4, 0x1.3p+4, 0x1.3p+4, 0x1.fp+4, 0x1.fp+4, 0x1.7p+7, 0x1.eep+8},
     {0x0p+0,
      0x1.6681450efdc9cp-1,
      0x1.6681450efdc9cp-1,
      0x1.8d6798958d9b6p-1,
      0x1.8d6798958d9b6p-1,
      0x1.9d2cbea4ebdd3p-1,
      0x1.9d2cbea4ebdd3p-1,
      0x1.aad794a6eb91bp-1,
      0x1.aad794a6eb91bp-1,
      0x1.b126634117f84p-1,
      0x1.b126634117f84p-1,
      0x1.b77531db445edp-1,
      0x1.b77531db445edp-1,
      0x1.bdc422036006dp-1,
      0x1.bdc422036006dp-1,
      0x1.c73a57eaa2a0bp-1,
      0x1.c73a57eaa2a0bp-1,
      0x1.d0e5604189375p-1,
      0x1.d1bdc69f8c21ep-1,
      0x1.d3d816aceaaf3p-1,
      0x1.d3d816aceaaf3p-1,
      0x1.d6ff7dfa00e28p-1,
      0x1.d6ff7dfa00e28p-1,
      0x1.d919ce075f6fdp-1,
      0x1.dc41355475a32p-1,
      0x1.e182ecaeea63bp-1,
      0x1.e182ecaeea63bp-1,
      0x1.e4dd2f1a9fbe7p-1,
      0x1.e8ded288ce704p-1,
      0x1.ed1372a38b8aep-1,
      0x1.fdf3b645a1cacp-1,
      0x1p+0},
     106,
     {0x1.59b50ep+1, 0x1p+0,	    0x1p+0,	   0x1.7e1a86p+3, 0x1.2fe3eap-1, 0x1.d7e172p-2,
      0x1.cda88ep-1, 0x1.2bb68cp+0, 0x1.a65bb2p-2, 0x1.cf945p+0,  0x1.2ad302p-2, 0x1.e9facap-2,
      0x1.20e74cp+6, 0x1.ba0dd8p-2, 0x1.542d56p-4, 0x1.36ac82p-1, 0x1.3e77acp+0, 0x1.17c86p+0,
      0x1.05d278p+2, 0x1p+0,	    0x1.20e74cp+6, 0x1p+0,	  0x1.20e74cp+6, 0x1p+0,
      0x1p+0,	     0x1.20e74cp+6, 0x1.fcc2f6p-1, 0x1.4a18aap-2, 0x1.446222p-1, 0x1.5334fap-1,
      0x1.ae212p-1,  0x1.04e73p-1,  0x1.847aaap+0, 0x1.009cp+2,	  0x1.20e74cp+6, 0x1p+0,
      0x1p+0,	     0x1.fcc2f6p-1, 0x1.a92ec6p-5, 0x1.3e77acp+0, 0x1.d34be6p-4, 0x1.1d58e6p-2,
      0x1.8012ap-3,  0x1.fbdf66p+2, 0x1.446222p-1, 0x1.26460ap+0, 0x1.cfc074p+0, 0x1.4a18aap-2,
      0x1.70f24cp-4, 0x1p+0,	    0x1p+0,	   0x1p+0,	  0x1p+0,	 0x1.a94848p-2,
      0x1p+0,	     0x1p+0,	    0x1p+0,	   0x1p+0,	  0x1p+0,	 0x1.8daec4p-4,
      0x1.6d9e6cp+2, 0x1p+0,	    0x1p+0,	   0x1p+0,	  0x1p+0,	 0x1p+0,
      0x1p+0,	     0x1p+0,	    0x1p+0,	   0x1p+0,	  0x1p+0,	 0x1p+0,
      0x1p+0,	     0x1p+0,	    0x1p+0,	   0x1.eaa6ecp-4, 0x1p+0,	 0x1p+0,
      0x1p+0,	     0x1p+0,	    0x1p+0,	   0x1p+0,	  0x1p+0,	 0x1.69e1acp-5,
      0x1.20e74cp+6, 0x1p+0,	    0x1.fcc2f6p-1, 0x1p+0,	  0x1p+0,	 0x1p+0,
      0x1p+0,	     0x1p+0,	    0x1.20e74cp+6, 0x1.20e74cp+6, 0x1.ba6016p+4, 0x1.9a3a36p+1,
      0x1p+0,	     0x1p+0,	    0x1p+0,	   0x1.243ec6p-4, 0x1p+0,	 0x1p+0,
      0x1p+0,	     0x1.9e8a5ap-6, 0x0p+0,	   0x0p+0}},
    /* kernel-src */
    {9,
     0x1.feb3acp-1,
     {0x1p+0, 0x1p+0, 0x1p+1, 0x1p+1, 0x1.8p+1, 0x1.8p+1, 0x1.3p+4, 0x1.ecp+6, 0x1.a16p+11},
     {0x0p+0, 0x1.dfdbb16c1e365p-1, 0x1.dfdbb16c1e365p-1, 0x1.f3d96638433d7p-1,
      0x1.f3d96638433d7p-1, 0x1.f7253da72a7bdp-1, 0x1.fb645a1cac083p-1, 0x1.fe76c8b439581p-1,
      0x1p+0},
     130,
     {0x1.4172fap-5,  0x1p+0,	      0x1p+0,	      0x1p+0,	      0x1p+0,
      0x1p+0,	      0x1p+0,	      0x1.00000ep-20, 0x1.618754p-13, 0x1p+0,
      0x1.00000ep-20, 0x1.00000ep-20, 0x1.00000ep-20, 0x1.00000ep-20, 0x1.00000ep-20,
      0x1.c7d0e2p-9,  0x1.00000ep-20, 0x1.97e75ep-11, 0x1.3136c6p-11, 0x1.00000ep-20,
      0x1.c6fe38p-13, 0x1.00000ep-20, 0x1.7cb36p-5,   0x1.7cb36p-5,   0x1.6ede32p-5,
      0x1.43a33cp-7,  0x1.9fe23ap-10, 0x1.80a42p-5,   0x1.48313cp-6,  0x1.69885ep-6,
      0x1.c1f8d4p-6,  0x1.80a42p-5,   0x1.780b26p-5,  0x1.87212ep-6,  0x1.ac8aap-6,
      0x1.8e5892p-5,  0x1.85815p-5,   0x1.8e5892p-5,  0x1.85815p-5,   0x1.85815p-5,
      0x1.8a6e16p-5,  0x1.4c143ap-6,  0x1.721b24p-6,  0x1.5d96d2p-6,  0x1.6dee9ep-6,
      0x1.09fc08p-6,  0x1.9cfa8cp-6,  0x1.48313cp-6,  0x1.63b4dap-6,  0x1.7d0212p-6,
      0x1.7aef1cp-6,  0x1.787b7p-6,   0x1.3bd7c6p-6,  0x1.08a8d2p-6,  0x1.85815p-5,
      0x1.06a258p-5,  0x1.896702p-6,  0x1.94f014p-6,  0x1.53c34ep-6,  0x1.63b4dap-6,
      0x1.9774d8p-6,  0x1.3bd7c6p-6,  0x1.3bd7c6p-6,  0x1.94f014p-6,  0x1.9cfa8cp-6,
      0x1.4a469p-6,   0x1.3a1dc4p-6,  0x1.81c4f8p-6,  0x1.ebcb28p-7,  0x1.2ee19ep-5,
      0x1.8e5892p-5,  0x1.f8484ep-6,  0x1.ccd952p-6,  0x1.2e2298p-6,  0x1.780b26p-5,
      0x1.3c3f58p-5,  0x1.3352d2p-6,  0x1.46b4bp-6,   0x1.a60b9ap-6,  0x1.5578a8p-6,
      0x1.413b06p-6,  0x1.4c143ap-6,  0x1.4a469p-6,   0x1.e98a9ep-6,  0x1.915566p-6,
      0x1.81c4f8p-6,  0x1.94f014p-6,  0x1.59b92p-6,   0x1.a373a6p-6,  0x1.0b4b1p-6,
      0x1.4a469p-6,   0x1.8f08e6p-6,  0x1.aef152p-6,  0x1.676e7ap-6,  0x1.44cd3ep-6,
      0x1.70392cp-6,  0x1.8f08e6p-6,  0x1.413b06p-6,  0x1.9cfa8cp-6,  0x1.5578a8p-6,
      0x1.7aef1cp-6,  0x1.8bc7fep-6,  0x1.7aef1cp-6,  0x1.915566p-6,  0x1.787b7p-6,
      0x1.8f08e6p-6,  0x1.721b24p-6,  0x1.4c143ap-6,  0x1.5d96d2p-6,  0x1.5007f8p-6,
      0x1.b61924p-6,  0x1.87212ep-6,  0x1.8f08e6p-6,  0x1.6dee9ep-6,  0x1.6dee9ep-6,
      0x1.48313cp-6,  0x1.38b7c2p-6,  0x1.46b4bp-6,   0x1.59b92p-6,   0x1.63b4dap-6,
      0x1.6dee9ep-6,  0x1.3fa0aep-6,  0x1.946e3cp-5,  0x1.dcf70cp-7,  0x1.c1f8d4p-6,
      0x1.5352c6p-5,  0x1.4e050ap-6,  0x1.6aec9ap-5,  0x1.ab2e66p+1,  0x1.aca3a6p-6}},
    /* msr */
    {4,
     0x1p+0,
     {0x1p+0, 0x1p+0, 0x1p+1, 0x1p+1},
     {0x0p+0, 0x1.fb9841aac53b1p-1, 0x1.fb9841aac53b1p-1, 0x1p+0},
     24,
     {0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0,
      0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0,
      0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x1p+0, 0x0p+0, 0x0p+0}},
};

/* run_length before the tables (main 539a046): pow where a != 1 */
static int64_t ref_left(const struct model_dist *run, double cap, double a, double u)
{
	if (a != 1)
		u = pow(u, a);
	u *= cap;
	double L = run->nk ? model_dist_inv(run, u) : 1;
	int64_t left = (int64_t)(L + 0.5) - 1;
	return left > 0 ? left : 0;
}

static uint64_t rs = 0x2545f4914f6cdd1dull;
static uint64_t nasked, nrand, nfast;

/* gen_run_edge_at's edge, as the walk from edge 0 finds it: the first
 * whose HI is above U, else the last */
static int edge_walk(const struct gen_run_edge *e, double u)
{
	int k = 0;
	while (k + 1 < GEN_RUN_EDGES && !(u < e[k].hi))
		k++;
	return k;
}

static void check_at(const struct model_dist *run, double cap, double a,
		     const struct gen_run_edge *e, double u)
{
	if (u >= 0 && gen_run_edge_at(e, u) != edge_walk(e, u)) {
		fprintf(stderr, "nk %u cap %a a %a u %a: edge %d, not %d\n", run->nk, cap, a, u,
			gen_run_edge_at(e, u), edge_walk(e, u));
		CHECK(0);
	}
	int64_t want = ref_left(run, cap, a, u), got = gen_run_left(run, cap, a, e, u);
	/* the first edge asked from its own table (run_length's run_e0) */
	int64_t got0 = gen_run_left0(run, cap, a, e, e[0], u);
	if (got != want || got0 != want) {
		fprintf(stderr, "nk %u cap %a a %a u %a: %lld (first edge apart %lld), not %lld\n",
			run->nk, cap, a, u, (long long)got, (long long)got0, (long long)want);
		CHECK(0);
	}
	nasked++;
}

/* U and up to 4 doubles either side of it, in [0, 1] */
static void check_near(const struct model_dist *run, double cap, double a,
		       const struct gen_run_edge *e, double u)
{
	if (!(u >= 0 && u <= 1))
		return;
	double lo = u, hi = u;
	check_at(run, cap, a, e, u);
	for (int i = 0; i < 4; i++) {
		lo = nextafter(lo, -1);
		hi = nextafter(hi, 2);
		if (lo >= 0)
			check_at(run, cap, a, e, lo);
		if (hi <= 1)
			check_at(run, cap, a, e, hi);
	}
}

/* the reference more than K at U (bits of a double >= 0)? */
struct more {
	const struct model_dist *run;
	double cap, a;
	int64_t k;
};
static int more(uint64_t x, const void *ctx)
{
	const struct more *q = ctx;
	double u;
	memcpy(&u, &x, sizeof(u));
	return ref_left(q->run, q->cap, q->a, u) > q->k;
}

/* The table of exponent A, checked: random U (N of them), the ends, the
 * edges, and every U in [0, 1] where the reference's length changes
 * below the table's longest (bisection over the doubles' bits). */
static void check_table(const struct model_dist *run, double cap, double a, int n)
{
	double y[GEN_RUN_EDGES];
	struct gen_run_edge e[GEN_RUN_EDGES];
	gen_run_ys(run, cap, y);
	gen_run_edges(run, cap, a, y, e);
	for (int k = 1; k < GEN_RUN_EDGES; k++) /* gen_run_edge_at's search asks it */
		CHECK(e[k].hi >= e[k - 1].hi);
	for (int i = 0; i < n; i++) {
		double u = unit_urand(&rs);
		check_at(run, cap, a, e, u);
		nrand++;
		for (int k = 0; k < GEN_RUN_EDGES; k++) /* answered by the table */
			if (u < e[k].hi) {
				nfast += u <= e[k].lo;
				break;
			}
	}
	check_at(run, cap, a, e, 0);
	check_at(run, cap, a, e, nextafter(1, 0));
	check_at(run, cap, a, e, 1);
	check_at(run, cap, a, e, 0x1p-53);
	for (int k = 0; k < GEN_RUN_EDGES; k++) {
		check_near(run, cap, a, e, e[k].lo);
		check_near(run, cap, a, e, e[k].hi);
	}
	double one = 1;
	uint64_t top;
	memcpy(&top, &one, sizeof(top));
	for (int64_t k = 0; k <= GEN_RUN_EDGES; k++) {
		struct more q = {run, cap, a, k};
		uint64_t at = model_first_u64(0, top, more, &q);
		double u;
		memcpy(&u, &at, sizeof(u));
		check_near(run, cap, a, e, u);
	}
}

/* A random CDF: knots rising from (v 1, c 0) with point masses (equal v),
 * gaps (equal c), integer or fractional values, to 1 or short of it. */
static void make_dist(struct model_dist *d)
{
	memset(d, 0, sizeof(*d));
	d->nk = 2 + (uint32_t)(unit_urand(&rs) * (MODEL_DIST_MAXK - 1));
	double c = 0, v = 1;
	int frac = unit_urand(&rs) < 0.3, top = unit_urand(&rs) < 0.9;
	for (uint32_t j = 0; j < d->nk; j++) {
		double r = unit_urand(&rs);
		if (j && r > 0.2)
			c += unit_urand(&rs) * (r > 0.9 ? 0.5 : 4.0 / d->nk);
		if (j && unit_urand(&rs) > 0.3)
			v += frac ? unit_urand(&rs) * 3 : 1 + floor(unit_urand(&rs) * 4);
		d->c[j] = c < 1 ? c : 1;
		d->v[j] = v;
	}
	if (top)
		d->c[d->nk - 1] = 1;
	model_dist_prepare(d);
}

/* the exponents 2^-20 .. 2^20 by quarter powers, and 1 */
static void check_exps(const struct model_dist *run, double cap, int n)
{
	for (int q = -80; q <= 80; q++)
		check_table(run, cap, exp2(q / 4.0), n);
}

int main(void)
{
	static struct model_dist d;
	CHECK(pow(0.3, 1) == 0.3); /* the re-using runs' pow(U, 1) was U */
	size_t nr = sizeof(reals) / sizeof(reals[0]);
	for (size_t i = 0; i < 2 * nr; i++) { /* their own exponents, then all */
		const struct real *r = &reals[i % nr];
		memset(&d, 0, sizeof(d));
		d.nk = r->nk;
		memcpy(d.v, r->v, sizeof(d.v));
		memcpy(d.c, r->c, sizeof(d.c));
		model_dist_prepare(&d);
		if (i < nr) {
			check_table(&d, r->cap, 1, 200000);
			for (uint32_t t = 0; t < r->na; t++)
				check_table(&d, r->cap, r->a[t], 20000);
			continue;
		}
		if (i == nr)
			printf("the real traces' tables: %.4f of random U answered\n",
			       (double)nfast / (double)nrand);
		check_exps(&d, r->cap, 2000);
		check_exps(&d, (float)(0.5 + 0.5 * unit_urand(&rs)), 1000);
	}
	for (int t = 0; t < 300; t++) {
		make_dist(&d);
		double cap = unit_urand(&rs) < 0.5 ? 1 : (float)(0.5 + 0.5 * unit_urand(&rs));
		check_table(&d, cap, 1, 2000);
		check_table(&d, cap, exp2(40 * unit_urand(&rs) - 20), 2000);
		if (t < 10)
			check_exps(&d, cap, 500);
	}
	/* one value (3: its two knots), one knot (no MODEL.json holds it:
	 * not monotone, no table), none */
	memset(&d, 0, sizeof(d));
	d.nk = 2;
	d.v[0] = d.v[1] = 3;
	d.c[1] = 1;
	model_dist_prepare(&d);
	check_exps(&d, 1, 1000);
	check_exps(&d, 0x1.c9883ep-1, 1000);
	d.nk = 1;
	model_dist_prepare(&d);
	check_exps(&d, 1, 1000);
	d.nk = 0;
	check_exps(&d, 1, 1000);
	printf("%llu U asked; of %llu random ones, %.4f answered by the table\n",
	       (unsigned long long)nasked, (unsigned long long)nrand,
	       (double)nfast / (double)nrand);
	return 0;
}
