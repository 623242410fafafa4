"""Agents in the loop: episodes of a served model against an environment package, saved as trajectories."""

from envforge.rollout.episode import EpisodeRunner, RolloutConfig
from envforge.rollout.runner import RolloutPlan, run_rollouts
from envforge.rollout.trajectory import Failure, Trajectory, load_trajectories, save_trajectories

__all__ = [
    "EpisodeRunner",
    "Failure",
    "RolloutConfig",
    "RolloutPlan",
    "Trajectory",
    "load_trajectories",
    "run_rollouts",
    "save_trajectories",
]
