"""After PyTorch's tutorial "Sequence Models and Long Short-Term Memory Networks" (Deep Learning for NLP with
PyTorch): an LSTM stepped one element at a time and over the whole sequence, then the LSTM part-of-speech tagger
(Embedding + LSTM + Linear + log_softmax, NLLLoss, SGD) on the tutorial's two training sentences.  The tutorial's
``torch.randn`` inputs and initial weights are numbers from numpy here."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

rng = np.random.default_rng(1)


def randn(*shape):
    return torch.tensor(rng.standard_normal(shape), dtype=torch.float32)


def set_weights(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, tuple(p.shape)), dtype=torch.float32))


lstm = nn.LSTM(3, 3)  # input dim is 3, output dim is 3
set_weights(lstm)
inputs = [randn(1, 3) for _ in range(5)]  # a sequence of length 5

# initialise the hidden state, then step through the sequence one element at a time
hidden = (randn(1, 1, 3), randn(1, 1, 3))
for i in inputs:
    out, hidden = lstm(i.view(1, 1, -1), hidden)
print(out)
print(hidden)

# or the entire sequence all at once
inputs = torch.cat(inputs).view(len(inputs), 1, -1)
hidden = (randn(1, 1, 3), randn(1, 1, 3))
out, hidden = lstm(inputs, hidden)
print(out)
print(hidden)


def prepare_sequence(seq, to_ix):
    idxs = [to_ix[w] for w in seq]
    return torch.tensor(idxs, dtype=torch.long)


training_data = [
    # tags: DET - determiner; NN - noun; V - verb
    ("The dog ate the apple".split(), ["DET", "NN", "V", "DET", "NN"]),
    ("Everybody read that book".split(), ["NN", "V", "DET", "NN"]),
]
word_to_ix = {}
for sent, tags in training_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
print(word_to_ix)
tag_to_ix = {"DET": 0, "NN": 1, "V": 2}
EMBEDDING_DIM = 6
HIDDEN_DIM = 6


class LSTMTagger(nn.Module):

    def __init__(self, embedding_dim, hidden_dim, vocab_size, tagset_size):
        super(LSTMTagger, self).__init__()
        self.hidden_dim = hidden_dim
        self.word_embeddings = nn.Embedding(vocab_size, embedding_dim)
        # the LSTM takes word embeddings as inputs and outputs hidden states of dimension hidden_dim
        self.lstm = nn.LSTM(embedding_dim, hidden_dim)
        # the linear layer that maps from hidden state space to tag space
        self.hidden2tag = nn.Linear(hidden_dim, tagset_size)

    def forward(self, sentence):
        embeds = self.word_embeddings(sentence)
        lstm_out, _ = self.lstm(embeds.view(len(sentence), 1, -1))
        tag_space = self.hidden2tag(lstm_out.view(len(sentence), -1))
        tag_scores = F.log_softmax(tag_space, dim=1)
        return tag_scores


model = LSTMTagger(EMBEDDING_DIM, HIDDEN_DIM, len(word_to_ix), len(tag_to_ix))
set_weights(model)
print(model)
loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)

# the scores before training
with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores)

for epoch in range(300):  # again, normally you would NOT do 300 epochs, it is toy data
    for sentence, tags in training_data:
        # step 1: PyTorch accumulates gradients, clear them out before each instance
        model.zero_grad()
        # step 2: the inputs as tensors of word indices
        sentence_in = prepare_sequence(sentence, word_to_ix)
        targets = prepare_sequence(tags, tag_to_ix)
        # step 3: the forward pass
        tag_scores = model(sentence_in)
        # step 4: the loss, the gradients, the update
        loss = loss_function(tag_scores, targets)
        loss.backward()
        optimizer.step()
    if epoch % 100 == 0:
        print(epoch, loss.item())
print(loss.grad_fn, tag_scores.grad_fn)
print(model.lstm(model.word_embeddings(sentence_in).view(len(sentence_in), 1, -1))[0].grad_fn)

# the scores after training: the word i, tag j score is the maximum at the right tag
with torch.no_grad():
    inputs = prepare_sequence(training_data[0][0], word_to_ix)
    tag_scores = model(inputs)
    print(tag_scores)
    print(tag_scores.argmax(dim=1))
