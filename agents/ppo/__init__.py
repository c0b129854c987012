"""The PPO actor-critic learner: its vectorised environment, network, training (JAX) and player (numpy)."""
