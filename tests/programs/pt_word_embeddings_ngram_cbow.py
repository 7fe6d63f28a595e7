"""After PyTorch's tutorial "Word Embeddings: Encoding Lexical Semantics" (Robert Guthrie): an N-gram language
model (nn.Embedding -> Linear -> ReLU -> Linear -> log_softmax, trained with NLLLoss and SGD on Shakespeare's
Sonnet 2), then the tutorial's exercise, a continuous bag-of-words (CBOW) model.  The tutorial seeds
torch.manual_seed(1); here the weights are set from numpy instead (the two generators differ), and the
vocabulary is sorted (a Python set's order changes from run to run)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

word_to_ix = {"hello": 0, "world": 1}
embeds = nn.Embedding(2, 5)  # 2 words in vocab, 5 dimensional embeddings
lookup_tensor = torch.tensor([word_to_ix["hello"]], dtype=torch.long)
hello_embed = embeds(lookup_tensor)
print(hello_embed.shape, hello_embed.grad_fn)

CONTEXT_SIZE = 2
EMBEDDING_DIM = 10
# We will use Shakespeare Sonnet 2
test_sentence = """When forty winters shall besiege thy brow,
And dig deep trenches in thy beauty's field,
Thy youth's proud livery so gazed on now,
Will be a totter'd weed of small worth held:
Then being asked, where all thy beauty lies,
Where all the treasure of thy lusty days;
To say, within thine own deep sunken eyes,
Were an all-eating shame, and thriftless praise.
How much more praise deserv'd thy beauty's use,
If thou couldst answer 'This fair child of mine
Shall sum my count, and make my old excuse,'
Proving his beauty by succession thine!
This were to be new made when thou art old,
And see thy blood warm when thou feel'st it cold.""".split()
ngrams = [([test_sentence[i - j - 1] for j in range(CONTEXT_SIZE)], test_sentence[i])
          for i in range(CONTEXT_SIZE, len(test_sentence))]
print(ngrams[:3])
vocab = sorted(set(test_sentence))
word_to_ix = {word: i for i, word in enumerate(vocab)}
rng = np.random.default_rng(1)


def set_weights(model):
    """Every parameter from numpy: N(0, 1) for an embedding, U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for Linear."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.startswith("embeddings"):
                values = rng.standard_normal(tuple(p.shape))
            else:
                fan_in = model.get_submodule(name.rsplit(".", 1)[0]).in_features
                values = rng.uniform(-1, 1, tuple(p.shape)) / fan_in ** 0.5
            p.copy_(torch.tensor(values, dtype=torch.float32))


class NGramLanguageModeler(nn.Module):

    def __init__(self, vocab_size, embedding_dim, context_size):
        super(NGramLanguageModeler, self).__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(context_size * embedding_dim, 128)
        self.linear2 = nn.Linear(128, vocab_size)

    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        out = self.linear2(out)
        log_probs = F.log_softmax(out, dim=1)
        return log_probs


losses = []
loss_function = nn.NLLLoss()
model = NGramLanguageModeler(len(vocab), EMBEDDING_DIM, CONTEXT_SIZE)
set_weights(model)
optimizer = optim.SGD(model.parameters(), lr=0.001)

for epoch in range(10):
    total_loss = 0
    for context, target in ngrams:
        # Step 1. Prepare the inputs to be passed to the model (i.e, turn the words
        # into integer indices and wrap them in tensors)
        context_idxs = torch.tensor([word_to_ix[w] for w in context], dtype=torch.long)
        # Step 2. Recall that torch *accumulates* gradients. Before passing in a
        # new instance, you need to zero out the gradients from the old instance
        model.zero_grad()
        # Step 3. Run the forward pass, getting log probabilities over next words
        log_probs = model(context_idxs)
        # Step 4. Compute your loss function.
        loss = loss_function(log_probs, torch.tensor([word_to_ix[target]], dtype=torch.long))
        # Step 5. Do the backward pass and update the gradient
        loss.backward()
        optimizer.step()
        # Get the Python number from a 1-element Tensor by calling tensor.item()
        total_loss += loss.item()
    losses.append(total_loss)
print(losses)  # The loss decreased every iteration over the training data!

# To get the embedding of a particular word, e.g. "beauty"
print(model.embeddings.weight[word_to_ix["beauty"]])

# Exercise: Computing Word Embeddings: Continuous Bag-of-Words
CONTEXT_SIZE = 2  # 2 words to the left, 2 to the right
raw_text = """We are about to study the idea of a computational process.
Computational processes are abstract beings that inhabit computers.
As they evolve, processes manipulate other abstract things called data.
The evolution of a process is directed by a pattern of rules
called a program. People create programs to direct processes. In effect,
we conjure the spirits of the computer with our spells.""".split()

# By deriving a set from `raw_text`, we deduplicate the array
vocab = sorted(set(raw_text))
vocab_size = len(vocab)

word_to_ix = {word: i for i, word in enumerate(vocab)}
data = []
for i in range(CONTEXT_SIZE, len(raw_text) - CONTEXT_SIZE):
    context = ([raw_text[i - j - 1] for j in range(CONTEXT_SIZE)] + [raw_text[i + j + 1] for j in range(CONTEXT_SIZE)])
    target = raw_text[i]
    data.append((context, target))
print(data[:5])


class CBOW(nn.Module):

    def __init__(self, vocab_size, embedding_dim):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, embedding_dim)
        self.linear1 = nn.Linear(embedding_dim, vocab_size)

    def forward(self, inputs):
        embeds = self.embeddings(inputs).sum(dim=0, keepdim=True)  # the context's embeddings added up
        return F.log_softmax(self.linear1(embeds), dim=1)


def make_context_vector(context, word_to_ix):
    idxs = [word_to_ix[w] for w in context]
    return torch.tensor(idxs, dtype=torch.long)


print(make_context_vector(data[0][0], word_to_ix))  # example
cbow = CBOW(vocab_size, EMBEDDING_DIM)
set_weights(cbow)
optimizer = optim.SGD(cbow.parameters(), lr=0.01)
for epoch in range(20):
    total_loss = 0
    for context, target in data:
        cbow.zero_grad()
        loss = loss_function(cbow(make_context_vector(context, word_to_ix)), torch.tensor([word_to_ix[target]]))
        loss.backward()
        optimizer.step()
        total_loss += loss.item()
    if epoch % 5 == 4:
        print(epoch, total_loss)
with torch.no_grad():
    right = sum(vocab[cbow(make_context_vector(c, word_to_ix)).argmax().item()] == t for c, t in data)
    print("predicted", right, "of", len(data))
    print(cbow.embeddings.weight.grad is None, cbow.embeddings.weight[word_to_ix["computational"]][:4])
# tolerance: 1e-3
