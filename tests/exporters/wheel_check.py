"""Run inside a fresh virtual environment holding only the exported wheels (not envforge itself).

For every domain given: `gym.make` by module-qualified id, `check_env` with warnings as errors, and every
task's oracle replayed through the Gym env. Prints one JSON summary line.
"""

import importlib
import importlib.util
import json
import sys
import warnings

import gymnasium as gym
from gymnasium.utils.env_checker import check_env

from envforge.runtime.gym_env import action_for_call

domains: dict[str, dict[str, int]] = {}
generator = importlib.util.find_spec("envforge.pipeline") is not None
for domain in sys.argv[1:]:
    module = importlib.import_module(f"envforge_env_{domain}")
    package = module.load()
    env = gym.make(f"envforge_env_{domain}:{module.ENV_ID}", task_id=package.task_ids[0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    rewards = []
    for task_id in package.task_ids:
        task = package.task(task_id)
        env.reset(options={"task_id": task_id})
        for call in task.oracle:
            env.step(action_for_call(call.name, call.arguments))
        _, reward, terminated, _, _ = env.step(package.golden_message(task_id))
        rewards.append(float(reward) if terminated else -1.0)
    domains[domain] = {"tasks": len(rewards), "passed": rewards.count(1.0)}
print(json.dumps({"generator_importable": generator, "domains": domains}))
