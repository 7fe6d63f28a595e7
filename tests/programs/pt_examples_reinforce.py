"""After pytorch/examples' reinforcement_learning/reinforce.py: a policy network whose softmax is a
``Categorical`` distribution, actions sampled from it, ``log_prob`` of each action kept, the returns
discounted and normalised, and ``sum(-log_prob * return)`` minimised with Adam (no dropout, and a small
corridor instead of CartPole: no gym).  ``Categorical.sample`` draws with ``multinomial``, so after
``manual_seed`` both libraries take the same actions."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.distributions import Categorical


class Corridor:
    """Cells 0..6; start in the middle; action 0 steps left, 1 right; +1 at the right end, -1 at the left end,
    -0.01 per step otherwise; at most 20 steps."""

    def reset(self):
        self.pos, self.t = 3, 0
        return self.state()

    def state(self):
        return [1.0 if i == self.pos else 0.0 for i in range(7)]

    def step(self, action):
        self.pos += 1 if action == 1 else -1
        self.t += 1
        if self.pos == 6:
            return self.state(), 1.0, True
        if self.pos == 0:
            return self.state(), -1.0, True
        return self.state(), -0.01, self.t >= 20


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.affine1 = nn.Linear(7, 16)
        self.affine2 = nn.Linear(16, 2)
        self.saved_log_probs, self.rewards = [], []

    def forward(self, x):
        x = F.relu(self.affine1(x))
        return F.softmax(self.affine2(x), dim=1)


torch.manual_seed(0)
policy = Policy()
optimizer = optim.Adam(policy.parameters(), lr=1e-2)
eps = torch.finfo(torch.float32).eps
env, gamma = Corridor(), 0.9


def select_action(state):
    state = torch.tensor(state).unsqueeze(0)
    probs = policy(state)
    m = Categorical(probs)
    action = m.sample()
    policy.saved_log_probs.append(m.log_prob(action))
    return action.item()


def finish_episode():
    R, returns = 0.0, []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps) if len(returns) > 1 else returns
    policy_loss = torch.cat([-log_prob * R for log_prob, R in zip(policy.saved_log_probs, returns)]).sum()
    optimizer.zero_grad()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]
    del policy.saved_log_probs[:]
    return policy_loss


print(Categorical(torch.tensor([0.25, 0.75])))
for episode in range(1, 41):
    state, ep_reward = env.reset(), 0.0
    for t in range(20):
        action = select_action(state)
        state, reward, done = env.step(action)
        policy.rewards.append(reward)
        ep_reward += reward
        if done:
            break
    loss = finish_episode()
    if episode % 5 == 0:
        print(f"episode {episode}: {t + 1} steps, reward {ep_reward:.2f}, loss {loss.item():.4f}, "
              f"grad_fn {loss.grad_fn.name()}")
probs = policy(torch.tensor(env.reset()).unsqueeze(0))
print("p(right) in the middle:", round(probs[0, 1].item(), 4))
