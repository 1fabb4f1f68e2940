#!/usr/bin/env bash
# A real, single-node Slurm cluster on this machine, for CI and for trying the Slurm scripts of
# autograder/slurm/ (the roster test, .ci/slurm-roster-test.sh, uses it). Needs root, and Debian's
# slurm-wlm (or slurmctld + slurmd + slurm-client) and munge (.ci/install-deps installs them).
#
#   .ci/slurm-cluster.sh start    write a minimal slurm.conf, start munged, slurmctld and slurmd, and
#                                 wait until sinfo shows this node idle
#   .ci/slurm-cluster.sh stop     stop the daemons it started and remove its folder
#   .ci/slurm-cluster.sh status   exit 0 when the cluster answers and the node is up
#
# The cluster: ClusterName=course-ci, this host (hostname -s) as controller and only node, with the
# CPUs and memory slurmd -C finds, one partition "debug" (the default), no GPU gres, no cgroups
# (proctrack/linuxproc, task/none), no accounting database (sacct has nothing; use squeue and
# scontrol). Its state, spool, logs and pid files live under SLURM_CI_DIR (default
# ${TMPDIR:-/tmp}/course-slurm-ci). /etc/slurm/slurm.conf is made a link to its slurm.conf when there
# is none; when the machine already has one, it is left alone and the commands need
# SLURM_CONF=$SLURM_CI_DIR/slurm.conf (the script says so).
#
# Exit status: 0 done; 1 it failed (the daemons' logs are printed); 2 usage; 77 not root, or Slurm
# or munge not installed (nothing was changed).
set -euo pipefail

DIR=${SLURM_CI_DIR:-${TMPDIR:-/tmp}/course-slurm-ci}
CONF=$DIR/slurm.conf
ETC_CONF=/etc/slurm/slurm.conf
WAIT_S=${SLURM_CI_WAIT_S:-60}

usage() {
  echo "usage: .ci/slurm-cluster.sh start|stop|status" >&2
  echo "  (environment: SLURM_CI_DIR, default ${TMPDIR:-/tmp}/course-slurm-ci; SLURM_CI_WAIT_S, default 60)" >&2
}
log() { echo "slurm-cluster: $*"; }
die() { echo "slurm-cluster: $*" >&2; exit 1; }

need_prereqs() {
  if [[ $(id -u) -ne 0 ]]; then
    echo "slurm-cluster: needs root (it starts munged, slurmctld and slurmd)" >&2
    exit 77
  fi
  local missing=()
  for p in munged slurmctld slurmd sinfo scontrol; do
    command -v "$p" > /dev/null || [[ -x /usr/sbin/$p ]] || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "slurm-cluster: not installed: ${missing[*]} (Debian: apt-get install slurm-wlm munge)" >&2
    exit 77
  fi
}

# The daemons' pids, from the pid files this script writes.
pid_of() { [[ -s $DIR/$1.pid ]] && cat "$DIR/$1.pid"; }
alive() { local p; p=$(pid_of "$1") && kill -0 "$p" 2> /dev/null; }

munge_works() { munge -n 2> /dev/null | unmunge > /dev/null 2>&1; }

node_state() { sinfo -h -N -n "$NODE" -o %t 2> /dev/null | head -n 1; }

show_logs() {
  for f in "$DIR"/log/*.log; do
    [[ -f $f ]] || continue
    echo "----- $f (last 30 lines)" >&2
    tail -n 30 "$f" >&2
  done
}

write_conf() {
  # The node line from slurmd -C: its real CPUs, sockets, cores, threads and memory.
  local hw
  hw=$(slurmd -C | head -n 1)
  [[ $hw == NodeName=* ]] || die "slurmd -C printed no NodeName line: $hw"
  hw=${hw#NodeName=* }
  mkdir -p "$DIR/state" "$DIR/spool" "$DIR/log"
  chmod 755 "$DIR"
  cat > "$CONF" << EOF
# Written by .ci/slurm-cluster.sh: a single-node test cluster. Do not use it for real work.
ClusterName=course-ci
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmctldPort=${SLURM_CI_CTLD_PORT:-6817}
SlurmdPort=${SLURM_CI_SLURMD_PORT:-6818}
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=60
InactiveLimit=0
KillWait=10
Waittime=0
NodeName=$NODE NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
  # Also the default location, unless the machine has a slurm.conf of its own.
  if [[ -L $ETC_CONF && $(readlink "$ETC_CONF") == "$CONF" ]] || [[ ! -e $ETC_CONF && ! -L $ETC_CONF ]]; then
    mkdir -p "$(dirname "$ETC_CONF")"
    ln -sfn "$CONF" "$ETC_CONF"
  else
    log "$ETC_CONF exists and is not ours: left alone; use SLURM_CONF=$CONF with the Slurm commands"
  fi
}

start_munge() {
  if munge_works; then
    log "munged already running"
    return
  fi
  if [[ ! -s /etc/munge/munge.key ]]; then
    log "creating /etc/munge/munge.key"
    if command -v mungekey > /dev/null; then
      mungekey --create --force
    else
      dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
    fi
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  chmod 755 /run/munge
  log "starting munged"
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 1 50); do
    munge_works && return
    sleep 0.2
  done
  tail -n 20 /var/log/munge/munged.log >&2 || true
  die "munged does not answer (munge -n | unmunge fails)"
}

start() {
  need_prereqs
  NODE=$(hostname -s)
  export SLURM_CONF=$CONF
  if alive slurmctld && alive slurmd; then
    log "already running (slurmctld pid $(pid_of slurmctld), slurmd pid $(pid_of slurmd))"
  else
    stop_daemons
    write_conf
    start_munge
    log "starting slurmctld and slurmd (config $CONF)"
    /usr/sbin/slurmctld -f "$CONF" || { show_logs; die "slurmctld did not start"; }
    /usr/sbin/slurmd -f "$CONF" || { show_logs; die "slurmd did not start"; }
  fi
  local state="" t=0
  while ((t < WAIT_S * 2)); do
    state=$(node_state || true)
    case $state in
      idle | mix | alloc) break ;;
      down* | drain*) scontrol update NodeName="$NODE" State=RESUME > /dev/null 2>&1 || true ;;
    esac
    sleep 0.5
    t=$((t + 1))
  done
  case $state in
    idle | mix | alloc) ;;
    *)
      show_logs
      sinfo -N -l >&2 || true
      die "node $NODE is not idle after ${WAIT_S}s (state: ${state:-no answer})"
      ;;
  esac
  log "cluster up: node $NODE is $state"
  sinfo
}

stop_daemons() {
  local d p
  for d in slurmd slurmctld; do
    if p=$(pid_of "$d") && kill -0 "$p" 2> /dev/null; then
      kill "$p" 2> /dev/null || true
      for _ in $(seq 1 50); do
        kill -0 "$p" 2> /dev/null || break
        sleep 0.2
      done
      if kill -0 "$p" 2> /dev/null; then kill -9 "$p" 2> /dev/null || true; fi
      log "stopped $d (pid $p)"
    fi
    rm -f "$DIR/$d.pid"
  done
}

stop() {
  need_prereqs
  stop_daemons
  # munged is shared with anything else that authenticates through it: it stays running.
  if [[ -L $ETC_CONF && $(readlink "$ETC_CONF") == "$CONF" ]]; then rm -f "$ETC_CONF"; fi
  if [[ -d $DIR ]]; then
    rm -rf "$DIR"
    log "removed $DIR"
  fi
}

status() {
  need_prereqs
  NODE=$(hostname -s)
  export SLURM_CONF=$CONF
  if ! alive slurmctld || ! alive slurmd; then
    echo "slurm-cluster: not running" >&2
    exit 1
  fi
  local state
  state=$(node_state || true)
  echo "slurm-cluster: node $NODE is ${state:-not answering}"
  case $state in idle | mix | alloc) exit 0 ;; *) exit 1 ;; esac
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  status) status ;;
  -h | --help) usage 2>&1; exit 0 ;;
  *) usage; exit 2 ;;
esac
