#!/bin/sh
# How this job is submitted.

sbatch -N 16 --gres=gpu:8 \
    --segment=4 --spread-segments \
    -x 'gpu-[001-002]' train.sh
