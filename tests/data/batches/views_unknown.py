# negatives: multi-view transforms whose output is not known
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import datasets, transforms


class WithOriginal:
    """One view is the untransformed image (a PIL image: not a tensor)."""

    def __init__(self, transform):
        self.transform = transform

    def __call__(self, x):
        return [self.transform(x), x]


class Repeated:
    """As many views as n: not read."""

    def __init__(self, transform, n=2):
        self.transform = transform
        self.n = n

    def __call__(self, x):
        return [self.transform(x) for _ in range(self.n)]


class Logged:
    """Does something else too."""

    def __init__(self, transform):
        self.transform = transform

    def __call__(self, x):
        print(x)
        return [self.transform(x), self.transform(x)]


class TwoCropTransform:
    def __init__(self, transform):
        self.transform = transform

    def __call__(self, x):
        return [self.transform(x), self.transform(x)]


class Images(Dataset):
    def __init__(self, files, transform=None):
        self.files = files
        self.transform = transform

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        img = Image.open(self.files[i]).convert("RGB")
        if self.transform is not None:
            img = self.transform(img)
        return img, 0


fixed = transforms.Compose([transforms.RandomResizedCrop(32), transforms.ToTensor()])
resized = transforms.Compose([transforms.Resize(256), transforms.ToTensor()])  # the smaller edge only
cropped = transforms.Compose([transforms.RandomApply([transforms.RandomCrop(16)], p=0.5), transforms.ToTensor()])  # 16 or the source's
a = DataLoader(Images(["a.jpg"], transform=WithOriginal(fixed)), batch_size=8, num_workers=2)
b = DataLoader(Images(["a.jpg"], transform=Repeated(fixed)), batch_size=8, num_workers=2)
c = DataLoader(Images(["a.jpg"], transform=Logged(fixed)), batch_size=8, num_workers=2)
d = DataLoader(Images(["a.jpg"], transform=TwoCropTransform(resized)), batch_size=8, num_workers=2)
e = DataLoader(datasets.CIFAR10("data", transform=TwoCropTransform(resized)), batch_size=8, num_workers=2)
f = DataLoader(datasets.CIFAR10("data", transform=WithOriginal(fixed)), batch_size=8, num_workers=2)
g = DataLoader(datasets.CIFAR10("data", transform=TwoCropTransform(cropped)), batch_size=8, num_workers=2)
