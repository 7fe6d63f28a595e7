"""After PyTorch's NLP tutorial "Deep Learning with PyTorch": affine maps, softmax, and the bag-of-words
classifier trained with NLLLoss and SGD."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

data = torch.tensor([[-0.5, 1.2], [0.3, -2.0]])
print(F.relu(data))
data = torch.tensor([1.5, -0.3, 0.2, 0.9, -1.1])
print(data, F.softmax(data, dim=0), F.softmax(data, dim=0).sum(), F.log_softmax(data, dim=0))

data = [("me gusta comer en la cafeteria".split(), "SPANISH"), ("Give it to me".split(), "ENGLISH"),
        ("No creo que sea una buena idea".split(), "SPANISH"), ("No it is not a good idea to get lost at sea".split(),
                                                               "ENGLISH")]
test_data = [("Yo creo que si".split(), "SPANISH"), ("it is lost on me".split(), "ENGLISH")]
word_to_ix = {}
for sent, _ in data + test_data:
    for word in sent:
        if word not in word_to_ix:
            word_to_ix[word] = len(word_to_ix)
VOCAB_SIZE, NUM_LABELS = len(word_to_ix), 2


class BoWClassifier(nn.Module):
    def __init__(self, num_labels, vocab_size):
        super().__init__()
        self.linear = nn.Linear(vocab_size, num_labels)

    def forward(self, bow_vec):
        return F.log_softmax(self.linear(bow_vec), dim=1)


def make_bow_vector(sentence, word_to_ix):
    vec = torch.zeros(len(word_to_ix))
    for word in sentence:
        vec[word_to_ix[word]] += 1
    return vec.view(1, -1)


def make_target(label, label_to_ix):
    return torch.LongTensor([label_to_ix[label]])


model = BoWClassifier(NUM_LABELS, VOCAB_SIZE)
rng = np.random.default_rng(14)
with torch.no_grad():
    for param in model.parameters():
        param.copy_(torch.tensor(rng.uniform(-0.2, 0.2, param.shape), dtype=torch.float32))
label_to_ix = {"SPANISH": 0, "ENGLISH": 1}
with torch.no_grad():
    for instance, label in test_data:
        print(model(make_bow_vector(instance, word_to_ix)))
print(next(model.parameters())[:, word_to_ix["creo"]])

loss_function = nn.NLLLoss()
optimizer = optim.SGD(model.parameters(), lr=0.1)
for epoch in range(100):
    for instance, label in data:
        model.zero_grad()
        bow_vec = make_bow_vector(instance, word_to_ix)
        target = make_target(label, label_to_ix)
        log_probs = model(bow_vec)
        loss = loss_function(log_probs, target)
        loss.backward()
        optimizer.step()
with torch.no_grad():
    for instance, label in test_data:
        print(model(make_bow_vector(instance, word_to_ix)))
print(next(model.parameters())[:, word_to_ix["creo"]])
print(loss.grad_fn, loss.grad_fn.next_functions)
# tolerance: 1e-3
