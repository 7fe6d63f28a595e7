"""After PyTorch's 60-minute blitz, "Training a classifier" (beginner/blitz/cifar10_tutorial.py): the CNN of
the tutorial (Conv2d 3->6->16, MaxPool2d, flatten, three Linear layers) trained with CrossEntropyLoss and SGD
with momentum on CIFAR-10-shaped made-up data (3x32x32 images in 10 classes, batches of 4), then the loss,
accuracy and accuracy per class on "test" images, the model's state_dict keys and shapes.  No download: the
images are made by a numpy generator, each class a different mean colour, and so are the weights."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

classes = ('plane', 'car', 'bird', 'cat', 'deer', 'dog', 'frog', 'horse', 'ship', 'truck')
rng = np.random.default_rng(1)


def make_images(n):
    labels = rng.integers(0, 10, n)
    colours = np.linspace(-0.8, 0.8, 30).reshape(10, 3, 1, 1)
    images = colours[labels] + 0.5 * rng.standard_normal((n, 3, 32, 32))
    return torch.tensor(images, dtype=torch.float32), torch.tensor(labels)


train_images, train_labels = make_images(64)
test_images, test_labels = make_images(40)
batch_size = 4


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)  # flatten all dimensions except batch
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


net = Net()
with torch.no_grad():
    for p in net.parameters():
        bound = 1 / np.sqrt(p[0].numel()) if p.dim() > 1 else 0.05
        p.copy_(torch.tensor(rng.uniform(-bound, bound, size=tuple(p.shape)), dtype=torch.float32))
print(net)

criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

for epoch in range(2):  # loop over the dataset multiple times
    running_loss = 0.0
    for i in range(len(train_images) // batch_size):
        # get the inputs; data is a list of [inputs, labels]
        inputs = train_images[i * batch_size:(i + 1) * batch_size]
        labels = train_labels[i * batch_size:(i + 1) * batch_size]

        # zero the parameter gradients
        optimizer.zero_grad()

        # forward + backward + optimize
        outputs = net(inputs)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()

        # print statistics
        running_loss += loss.item()
        if i % 4 == 3:    # print every 4 mini-batches
            print(f'[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 4:.3f}')
            running_loss = 0.0

print('Finished Training')
print(net.conv1.bias)

images, labels = test_images[:batch_size], test_labels[:batch_size]
print('GroundTruth: ', ' '.join(f'{classes[labels[j]]:5s}' for j in range(4)))
outputs = net(images)
print(outputs)
_, predicted = torch.max(outputs, 1)
print('Predicted: ', ' '.join(f'{classes[predicted[j]]:5s}' for j in range(4)))

correct = 0
total = 0
# since we're not training, we don't need to calculate the gradients for our outputs
with torch.no_grad():
    for i in range(len(test_images) // batch_size):
        images = test_images[i * batch_size:(i + 1) * batch_size]
        labels = test_labels[i * batch_size:(i + 1) * batch_size]
        # calculate outputs by running images through the network
        outputs = net(images)
        # the class with the highest energy is what we choose as prediction
        _, predicted = torch.max(outputs.data, 1)
        total += labels.size(0)
        correct += (predicted == labels).sum().item()
print(f'Accuracy of the network on the {total} test images: {100 * correct // total} %')

correct_pred = {classname: 0 for classname in classes}
total_pred = {classname: 0 for classname in classes}
with torch.no_grad():
    for i in range(len(test_images) // batch_size):
        images = test_images[i * batch_size:(i + 1) * batch_size]
        labels = test_labels[i * batch_size:(i + 1) * batch_size]
        outputs = net(images)
        _, predictions = torch.max(outputs, 1)
        # collect the correct predictions for each class
        for label, prediction in zip(labels, predictions):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
for classname, correct_count in correct_pred.items():
    if total_pred[classname]:
        accuracy = 100 * float(correct_count) / total_pred[classname]
        print(f'Accuracy for class: {classname:5s} is {accuracy:.1f} %')

for name, value in net.state_dict().items():
    print(name, tuple(value.shape))
# tolerance: 1e-3
