"""Ray RLlib training for mafia_env (extra: rllib): env wrapper, config, PPO entry point, loader."""
