"""A Ray RLlib configuration for self-play PPO over the PettingZoo AEC environment, with action
masking.  Not run in CI (Ray is not a dependency of this project); written for the new API stack
of ``ray[rllib]`` 2.40 or later:

    pip install "ray[rllib]" torch ginrummy[env]
    python examples/rllib_config.py --iterations 10

RLlib's ``PettingZooEnv`` turns the AEC environment into a multi-agent one; both seats share one
policy.  RLlib's example ``ActionMaskingTorchRLModule`` reads ``{"observations", "action_mask"}``,
so a thin wrapper renames our ``"observation"`` key.  The same wrapper works for any scope, rules
or reward of ``GinRummyAEC`` (``docs/env.md``).
"""

from __future__ import annotations

import argparse

from gymnasium import spaces
from pettingzoo.utils import BaseWrapper

from ginrummy.env import GinRummyAEC


class RLlibNames(BaseWrapper):
    """``GinRummyAEC`` with the observation keyed ``"observations"`` (RLlib's masking modules)."""

    def __init__(self, env: GinRummyAEC) -> None:
        super().__init__(env)
        self._spaces = {}
        for agent in env.possible_agents:
            space = env.observation_space(agent)
            self._spaces[agent] = spaces.Dict({"observations": space["observation"],
                                               "action_mask": space["action_mask"]})

    def observation_space(self, agent):
        return self._spaces[agent]

    def observe(self, agent):
        obs = self.env.observe(agent)
        return {"observations": obs["observation"], "action_mask": obs["action_mask"]}


def make_config(rules: str = "standard", scope: str = "deal", reward: str = "win"):
    """The PPO configuration (RLlib's ``PPOConfig``) for ``GinRummyAEC(rules, scope, reward)``."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env("ginrummy_aec", lambda cfg: PettingZooEnv(RLlibNames(GinRummyAEC(**cfg))))
    return (
        PPOConfig()
        .environment("ginrummy_aec", env_config={"rules": rules, "scope": scope, "reward": reward})
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            "shared": RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                                   model_config={"head_fcnet_hiddens": [256, 256]}),
        }))
        .env_runners(num_env_runners=1)
        .training(train_batch_size_per_learner=4000, minibatch_size=256, lr=3e-4, gamma=1.0)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--scope", default="deal")
    args = parser.parse_args()
    algo = make_config(args.rules, args.scope).build_algo()
    for i in range(args.iterations):
        result = algo.train()
        print(i, result.get("env_runners", {}).get("episode_return_mean"))


if __name__ == "__main__":
    main()
