"""After d2l.ai's "Concise Implementation of Recurrent Neural Networks" (chapter 9.6): a character-level
language model, ``nn.RNN`` with an ``nn.Linear`` output layer on one-hot characters, trained a few steps with
SGD and d2l's gradient clipping on a small made-up text, then predicting a continuation."""
import math

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

text = ("the time traveller for so it will be convenient to speak of him was expounding a recondite matter "
        "to us his grey eyes shone and twinkled and his usually pale face was flushed and animated ") * 3
idx_to_token = sorted(set(text))
token_to_idx = {t: i for i, t in enumerate(idx_to_token)}
corpus = [token_to_idx[c] for c in text]
vocab_size, num_hiddens, num_steps, batch_size = len(idx_to_token), 32, 10, 4
print("vocab", vocab_size, "corpus", len(corpus))


class RNNLMConcise(nn.Module):
    """d2l's RNNLMConcise: one-hot inputs (time major), the RNN, the output layer."""

    def __init__(self, rnn, vocab_size):
        super().__init__()
        self.rnn = rnn
        self.vocab_size = vocab_size
        self.linear = nn.Linear(rnn.hidden_size, vocab_size)

    def one_hot(self, X):
        return F.one_hot(X.T, self.vocab_size).type(torch.float32)

    def output_layer(self, hiddens):
        return self.linear(hiddens).swapaxes(0, 1)

    def forward(self, X, state=None):
        rnn_outputs, state = self.rnn(self.one_hot(X), state)
        return self.output_layer(rnn_outputs), state

    def predict(self, prefix, num_preds):
        state, outputs = None, [token_to_idx[prefix[0]]]
        for i in range(len(prefix) + num_preds - 1):
            X = torch.tensor([[outputs[-1]]])
            rnn_outputs, state = self.rnn(self.one_hot(X), state)
            if i < len(prefix) - 1:  # warm-up period
                outputs.append(token_to_idx[prefix[i + 1]])
            else:
                Y = self.output_layer(rnn_outputs)
                outputs.append(int(Y.argmax(axis=2).reshape(1)))
        return "".join(idx_to_token[i] for i in outputs)


def clip_gradients(grad_clip, model):
    """d2l's clip_gradients: scale all the gradients down when their joint norm is above grad_clip."""
    params = [p for p in model.parameters() if p.requires_grad]
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > grad_clip:
        for param in params:
            param.grad[:] *= grad_clip / norm
    return norm


rnn = nn.RNN(vocab_size, num_hiddens)
model = RNNLMConcise(rnn, vocab_size)
print(model)
print([(name, tuple(p.shape)) for name, p in model.named_parameters()])
rng = np.random.default_rng(7)
with torch.no_grad():
    for p in model.parameters():
        bound = 1 / math.sqrt(num_hiddens)
        p.copy_(torch.tensor(rng.uniform(-bound, bound, tuple(p.shape)), dtype=torch.float32))

# sequential minibatches: batch_size rows of the corpus, num_steps characters at a time
rows = len(corpus) // batch_size
data = np.array(corpus[:rows * batch_size]).reshape(batch_size, rows)
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
step = 0
for epoch in range(3):
    for start in range(0, rows - num_steps - 1, num_steps):
        X = torch.tensor(data[:, start:start + num_steps])
        Y = torch.tensor(data[:, start + 1:start + num_steps + 1])
        Y_hat, state = model(X)
        loss = F.cross_entropy(Y_hat.reshape(-1, vocab_size), Y.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        norm = clip_gradients(0.5, model)
        optimizer.step()
        step += 1
        if step % 5 == 1:
            print(f"step {step}: loss {loss.item():.4f}, perplexity {math.exp(loss.item()):.3f}, "
                  f"gradient norm {norm.item():.4f}")
print(Y_hat.grad_fn, state.grad_fn, state.shape)
print(model.rnn.weight_hh_l0.grad[:2, :4])
with torch.no_grad():
    print(model.predict("the time ", 20))
