#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# anchors.py: the "anchor kernels" campaign on the V100 set, by replay through
# the scalepredict CLI (docs/sweeps.md, "Anchor kernels: tried").  One 80/20
# split of the kernels (seeded); of the training kernels a fraction, the
# anchors, is "measured" in full; the others at the base (and at NEXTRA more
# clocks); physet trained on the anchors completes the others from their
# base (and further points, --use-measured); physet trained on anchors and
# completions predicts the held-out kernels from their base, scored against
# every measured configuration.  MODE full trains on every training kernel's
# measurements instead (the exhaustive reference of the same split); MODE
# only trains on the anchors alone (the other training kernels are not
# measured at all).
#
#   python3 docs/img/adaptive/anchors.py FRACTION SEED NEXTRA anchors|full|only
#
# Environment: SP (the scalepredict binary, default src/scalepredict),
# SP_V100 (default ../shared/datasets/v100-dvfs).  Standard library only.
import atexit, csv, random, shutil, subprocess, sys, os, tempfile
SP=os.environ.get('SP','src/scalepredict')
D=os.environ.get('SP_V100','../shared/datasets/v100-dvfs')
BASE='80cu/802/877'
frac=float(sys.argv[1]); seed=int(sys.argv[2]); nextra=int(sys.argv[3]) if len(sys.argv)>3 else 0
W=tempfile.mkdtemp(prefix='sp-anchors-')
atexit.register(shutil.rmtree, W, True)
runs=list(csv.DictReader(open(D+'/runs.csv'))); hdr=list(runs[0].keys())
cnt_lines=open(D+'/counters.csv').read().splitlines(); chdr=cnt_lines[0]
ks=sorted(set(r['kernel'] for r in runs))
rng=random.Random(seed); sh=ks[:]; rng.shuffle(sh)
nte=len(ks)//5; test=set(sh[:nte]); trk=[k for k in sh[nte:]]
anchors=set(trk[:int(round(frac*len(trk)))])
def wr(path,rows):
    with open(path,'w',newline='') as f:
        w=csv.DictWriter(f,fieldnames=hdr); w.writeheader(); w.writerows(rows)
def wc(path,kset):
    with open(path,'w') as f:
        f.write(chdr+'\n')
        for l in cnt_lines[1:]:
            k=next(csv.reader([l]))[0]
            if k in kset: f.write(l+'\n')
def sp(*a):
    r=subprocess.run([SP]+list(a),capture_output=True,text=True)
    if r.returncode: print(r.stderr); sys.exit(1)
    return r.stdout
def train(runsrows,kset,out):
    wr(W+'/r.csv',runsrows); wc(W+'/c.csv',kset)
    sp('train','--quiet','--runs',W+'/r.csv','--counters',W+'/c.csv','--base',BASE,'--methods','physet','--epochs','50','--restarts','2','--out',out)
def predict(model,kset,extra=None,EX=()):
    rows=[r for r in runs if r['kernel'] in kset and (r['cu']+'cu/'+r['engine_mhz']+'/'+r['memory_mhz']==BASE or (extra and (r['kernel'],r['cu']+'cu/'+r['engine_mhz']+'/'+r['memory_mhz']) in extra))]
    wr(W+'/pr.csv',rows); wc(W+'/pc.csv',kset)
    args=['predict','--model',model,'--runs',W+'/pr.csv','--counters',W+'/pc.csv','--target','all','--format','csv','--method','physet']
    if EX: args+=['--use-measured',','.join(EX)]
    out=sp(*args)
    return list(csv.DictReader(out.splitlines()))
meas={(r['kernel'],r['cu']+'cu/'+r['engine_mhz']+'/'+r['memory_mhz']):r for r in runs}
# full model
mode=sys.argv[4] if len(sys.argv)>4 else 'anchors'
if mode=='only':
    train([r for r in runs if r["kernel"] in anchors],anchors,W+'/mo')
    M=W+'/mo'; npts=len(anchors)*10
elif mode=='full':
    train([r for r in runs if r["kernel"] in trk],set(trk),W+'/mfull')
    M=W+'/mfull'; npts=len(trk)*10
else:
    train([r for r in runs if r['kernel'] in anchors],anchors,W+'/ma')
    others=set(trk)-anchors
    EX=['80cu/405/877','80cu/1380/877','80cu/600/877'][:nextra]
    extra={(k,c) for k in others for c in EX}
    pr=predict(W+'/ma',others,extra,EX)
    comp=[]
    for p in pr:
        cu,rest=p['target'].split('cu/'); e,m=rest.split('/')
        comp.append({'kernel':p['kernel'],'cu':cu,'engine_mhz':e,'memory_mhz':m,'time_ms':p['time_ms'],'power_w':p['power_w']})
    train([r for r in runs if r['kernel'] in anchors]+comp,set(trk),W+'/mb')
    M=W+'/mb'; npts=len(anchors)*10+len(others)*(1+nextra)
    ce=[abs(float(p['time_ms'])/float(meas[(p['kernel'],p['target'])]['time_ms'])-1)*100 for p in pr if p['target']!=BASE]
    print('completion MAPE %.2f'%(sum(ce)/len(ce)))
pt=predict(M,test)
e=[abs(float(p['time_ms'])/float(meas[(p['kernel'],p['target'])]['time_ms'])-1)*100 for p in pt if p['target']!=BASE]
print(mode,'frac',frac,'seed',seed,'points %d of %d (%.2fx fewer)'%(npts,len(trk)*10,len(trk)*10/npts),'held-out time MAPE %.2f'%(sum(e)/len(e)))
